/**
 * OAUTH-NONWEB-*: the non-web flow (seed: Authentication › Non-web flow — a token created with
 * Basic authentication, with `add_scopes` and `note`, which the user can revoke; two-factor
 * authentication handled where enabled). What the seed states is checked as it states it with
 * `check` (S-NON-WEB-FLOW is each case's first rule where it applies): Basic authentication gives
 * a token that works on the API, a revoked token is refused, a two-factor user gets no token
 * without a right code. Where and how — the authorizations API, 201/200, `X-Service-OTP`, a code
 * used once, the token shown once — is the contract's (`ctx.rule("D-…")`), switchable in the profile.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import { check, type Checks } from "../../core/failure.ts";
import { nonce } from "../../core/random.ts";
import { HttpClient, type HttpResponse } from "../../core/http.ts";
import { parseLink } from "../feeds/link.ts";
import {
  createToken,
  errorItems,
  seedNonWeb,
  freshNote,
  NONWEB_SEED,
  nonweb,
  requireAuthorizationsApi,
  sha256Hex,
  sortedScopes,
  tidy,
  tokenStatus,
  totpCode,
  twoFactorUser,
  userBasic,
  wrongTotpCode,
  type Authorization,
  type Basic,
} from "./nonweb-support.ts";
import { withFreshCode } from "./totp-steps.ts";

const OTP_HEADER = /^required;\s*(app|sms)$/;

/** Every authorization of the user, following rel="next" (at most 20 pages). */
async function listAll(ctx: CaseContext, basic: Basic): Promise<Authorization[]> {
  const all: Authorization[] = [];
  let path: string | undefined;
  for (let page = 0; page < 20; page++) {
    const res: HttpResponse = await nonweb(ctx, path ? { path, basic } : { operationId: "listAuthorizations", basic });
    ctx.rule("D-NONWEB-AUTHORIZATIONS").status(res.status, 200, "GET /authorizations lists the user's authorizations");
    all.push(...res.json<Authorization[]>());
    path = parseLink(res.headers.get("link"), res.exchange.url).next;
    if (!path) break;
  }
  return all;
}

async function update(ctx: CaseContext, basic: Basic, id: number, body: Record<string, unknown>): Promise<HttpResponse> {
  return nonweb(ctx, { operationId: "updateAuthorization", params: { authorization_id: id }, basic, json: body });
}

/** The two-factor challenge: 401 with `X-Service-OTP: required; app|sms` (D-NONWEB-TWO-FACTOR). */
function checkChallenge(ctx: CaseContext, res: HttpResponse, what: string): void {
  const d: Checks = ctx.rule("D-NONWEB-TWO-FACTOR");
  d.status(res.status, 401, `${what}: 401`);
  d.matches(res.headers.get("x-service-otp"), OTP_HEADER, `${what}: X-Service-OTP says a code is required and how it is delivered`, "/headers/x-service-otp");
}

export const NONWEB_CASES: Case[] = [
  {
    id: "OAUTH-NONWEB-001",
    title: "A token created with Basic authentication works on the API, is updated, listed and revoked, and is refused once revoked",
    area: "oauth",
    seed: NONWEB_SEED,
    rules: ["S-NON-WEB-FLOW", "D-NONWEB-AUTHORIZATIONS", "D-SCHEMA-AUTHORIZATION-TOKEN", "D-REF-NONWEB-NO-APP-TOKENS", "D-SCHEMA-AUTHORIZATION-UPDATE", "D-REF-NONWEB-REMOVE-SCOPES"],
    needs: ["user", "basic"],
    async run(ctx) {
      const api = seedNonWeb(ctx);
      const basic = userBasic(ctx);
      const note = freshNote("OAUTH-NONWEB-001");
      let id: number | undefined;
      try {
        const res = await nonweb(ctx, { operationId: "createAuthorization", basic, json: { scopes: ["public_repo"], note } });
        api.absent(res);
        check.ok(res.status >= 200 && res.status < 300, "Basic authentication creates a token (seed: Non-web flow)", { expected: "a 2xx with the token", actual: res.status, pointer: "/status" });
        const created = res.json<Authorization>();
        id = created.id;
        check.ok(typeof created.token === "string" && created.token.length > 0, "the answer carries the new token", { actual: created.token, pointer: "/body/token" });
        const d: Checks = ctx.rule("D-NONWEB-AUTHORIZATIONS");
        d.status(res.status, 201, "POST /authorizations answers 201 Created");
        d.equal(res.headers.get("location"), created.url, "Location is the authorization's url", "/headers/location");
        d.equal(created.note, note, "note is the one sent", "/body/note");
        d.equal(sortedScopes(created), ["public_repo"], "scopes are the ones sent", "/body/scopes");
        const t: Checks = ctx.rule("D-SCHEMA-AUTHORIZATION-TOKEN");
        t.equal(created.token_last_eight, created.token.slice(-8), "token_last_eight is the token's last eight characters", "/body/token_last_eight");
        t.equal(created.hashed_token, sha256Hex(created.token), "hashed_token is the lower-case hex SHA-256 of the token", "/body/hashed_token");
        const a: Checks = ctx.rule("D-REF-NONWEB-NO-APP-TOKENS");
        a.equal(created.app?.client_id, "00000000000000000000", "a token made without an application names the all-zero client_id", "/body/app/client_id");
        a.equal(created.app?.name, `${note} (API)`, 'its app name is "<note> (API)"', "/body/app/name");

        check.equal(await tokenStatus(ctx, created.token), 200, "the new token is taken on the API (seed: the token is used on API requests)", "/status");

        // Reading, editing and listing are the contract's interface alone (D-NONWEB-AUTHORIZATIONS and its neighbours).
        if (ctx.decisions.on("D-NONWEB-AUTHORIZATIONS")) {
          const read = await nonweb(ctx, { operationId: "getAuthorization", params: { authorization_id: created.id }, basic });
          d.status(read.status, 200, `GET /authorizations/${created.id}`);
          t.equal(read.json<Authorization>().token, "", "the token is shown only when it is created: GET answers token \"\"", "/body/token");

          const added = await update(ctx, basic, created.id, { add_scopes: ["gist"] });
          d.status(added.status, 200, "PATCH add_scopes [gist]");
          d.equal(sortedScopes(added.json<Authorization>()), ["gist", "public_repo"], "add_scopes adds to the scopes", "/body/scopes");
          const removed = await update(ctx, basic, created.id, { remove_scopes: ["gist"] });
          d.status(removed.status, 200, "PATCH remove_scopes [gist]");
          d.equal(sortedScopes(removed.json<Authorization>()), ["public_repo"], "remove_scopes removes from the scopes", "/body/scopes");
          const replaced = await update(ctx, basic, created.id, { scopes: ["repo"] });
          d.status(replaced.status, 200, "PATCH scopes [repo]");
          const narrowed = await update(ctx, basic, created.id, { remove_scopes: ["public_repo"] });
          const r: Checks = ctx.rule("D-REF-NONWEB-REMOVE-SCOPES");
          r.status(narrowed.status, 200, "PATCH remove_scopes [public_repo] on [repo]");
          r.equal(sortedScopes(narrowed.json<Authorization>()), ["notifications", "repo:status", "repo_deployment"], "removing public_repo from repo leaves what repo grants besides it", "/body/scopes");
          const noteOnly = await update(ctx, basic, created.id, { note: `${note} edited` });
          ctx.rule("D-SCHEMA-AUTHORIZATION-UPDATE").status(noteOnly.status, 422, "a PATCH without exactly one of scopes / add_scopes / remove_scopes is refused");

          const listed = await listAll(ctx, basic);
          const entry = listed.find((x) => x.id === created.id);
          d.ok(entry !== undefined, "GET /authorizations lists the new authorization", { expected: created.id, actual: listed.map((x) => x.id), pointer: "/body" });
          if (entry) t.equal(entry.token, "", "the list shows token \"\"", "/body/token");
        }

        const gone = await nonweb(ctx, { operationId: "deleteAuthorization", params: { authorization_id: created.id }, basic });
        d.status(gone.status, 204, `DELETE /authorizations/${created.id}`);
        if (gone.status >= 200 && gone.status < 300) id = undefined;
        else if (ctx.decisions.off("D-NONWEB-AUTHORIZATIONS")) ctx.skip(`not checked: the seed's revocation — DELETE /authorizations/${created.id} answered ${gone.status} and D-NONWEB-AUTHORIZATIONS is switched off, so the suite does not know where this target revokes`);
        const after = await tokenStatus(ctx, created.token);
        check.ok(after >= 400 && after < 500, "a revoked token is refused (seed: the user can revoke the token)", { expected: "a 4xx refusal", actual: after, pointer: "/status" });
        d.equal(after, 401, "… with 401", "/status");
      } finally {
        await tidy(ctx, basic, id);
      }
    },
  },
  {
    id: "OAUTH-NONWEB-002",
    title: "A two-factor user gets a token only with a right code: challenged without one, refused a wrong or reused one",
    area: "oauth",
    seed: NONWEB_SEED,
    rules: ["S-NON-WEB-FLOW", "D-NONWEB-TWO-FACTOR", "D-REF-NONWEB-TWO-FACTOR-CODES"],
    // Each code is good once: a rerun straight after, and the clean-up's DELETE, may each wait
    // for a fresh 30 s step (totp-steps.ts) — three periods and a margin.
    minTimeoutMs: 100_000,
    needs: ["two-factor"],
    async run(ctx) {
      const api = seedNonWeb(ctx);
      const user = twoFactorUser(ctx);
      const basic = { username: user.login, password: user.password };
      const body = () => ({ scopes: [], note: freshNote("OAUTH-NONWEB-002") });
      const refusedWithout = (res: HttpResponse, what: string) =>
        check.ok(res.status < 200 || res.status >= 300, `${what}: no token for a two-factor user (seed: two-factor authentication must be handled)`, { expected: "a refusal", actual: `${res.status} ${res.text.slice(0, 120)}`, pointer: "/status" });

      // A target may lock a login after failed attempts — a guard against guessing the seed neither
      // asks for nor forbids — and repeated runs spend them (up to four a run: a wrong password, a
      // wrong code, a reused code, a code an earlier run used). A lockout is told by the right
      // password without a code, which costs no failed attempt, refused outright; nothing can be
      // checked then, and the reason says so. A refusal that is not a lockout is checked as ever.
      const lockoutLike = (res: HttpResponse) => (res.status === 403 || res.status === 429) && res.headers.get("x-service-otp") === null;
      const skipIfLocked = async (res: HttpResponse, when: string, probe = true) => {
        if (!lockoutLike(res)) return;
        // On a side client, so a failure's curl line stays the request that showed it.
        const locked = probe ? await nonweb(ctx, { operationId: "createAuthorization", basic, json: body(), client: new HttpClient(ctx.baseUrl, ctx.authUrl), validate: false }) : res;
        if (!lockoutLike(locked)) return;
        ctx.skip(
          `not checked: ${when}, the target refuses ${user.login}'s right password with ${locked.status} (${JSON.stringify(locked.text.slice(0, 120))}) — a lockout of failed logins, spent by earlier runs within the target's window? ` +
            "Each run of this case spends up to four wrong attempts (a wrong password, a wrong code, a reused code, a code an earlier run used); run it again when the window ends, or name another two-factor user (the reference: serve --failed-logins 100)",
        );
      };

      // The right password without a code first: the free request, before this run tried anything wrong.
      const bare = await nonweb(ctx, { operationId: "createAuthorization", basic, json: body() });
      refusedWithout(bare, "the right password without a code");
      await skipIfLocked(bare, "before this run tried a wrong attempt", false);
      checkChallenge(ctx, bare, "the right password without a code");

      const wrongPassword = await nonweb(ctx, { operationId: "createAuthorization", basic: { ...basic, password: `${basic.password}-wrong-${nonce()}` }, json: body(), otp: totpCode(user) });
      api.absent(wrongPassword);
      refusedWithout(wrongPassword, "a wrong password with a right code");
      await skipIfLocked(wrongPassword, "once this run sent a wrong password");
      const w: Checks = ctx.rule("D-REF-NONWEB-TWO-FACTOR-CODES");
      w.status(wrongPassword.status, 401, "a wrong password: 401");
      w.equal(wrongPassword.headers.get("x-service-otp"), null, "a wrong password gets no X-Service-OTP (it would confirm the password)", "/headers/x-service-otp");

      const wrong = await nonweb(ctx, { operationId: "createAuthorization", basic, json: body(), otp: wrongTotpCode(user) });
      refusedWithout(wrong, "a wrong code");
      await skipIfLocked(wrong, "once this run sent a wrong code");
      checkChallenge(ctx, wrong, "a wrong code");

      // A code no request of this run spent, the next step's where an earlier run on this target used
      // the current one (totp-steps.ts: a rerun within the period passes).
      const { res, code } = await withFreshCode(ctx, user, (otp) => nonweb(ctx, { operationId: "createAuthorization", basic, json: body(), otp }), { onRetry: (why) => ctx.note(why) });
      await skipIfLocked(res, "when this run sent a right code");
      check.ok(res.status >= 200 && res.status < 300, "the right password and a right code give a token", { expected: "a 2xx with the token", actual: `${res.status} ${res.text.slice(0, 160)}`, pointer: "/status" });
      const created = res.json<Authorization>();
      check.ok(typeof created.token === "string" && created.token.length > 0, "the answer carries the new token", { actual: created.token, pointer: "/body/token" });
      check.equal(await tokenStatus(ctx, created.token), 200, "the token made with two-factor is taken on the API", "/status");

      const reused = await nonweb(ctx, { operationId: "createAuthorization", basic, json: body(), otp: code });
      const again = reused.status >= 200 && reused.status < 300 ? reused.json<Authorization>() : undefined;
      try {
        const d: Checks = ctx.rule("D-NONWEB-TWO-FACTOR");
        d.ok(again === undefined, "a code is accepted once: the same code again gives no second token", { expected: "401 with X-Service-OTP", actual: reused.status, pointer: "/status" });
        checkChallenge(ctx, reused, "the same code a second time");
      } finally {
        // Both are deleted by the case's clean-up (cleanup.ts), each with a code of a later time
        // step than the last one sent: every code is good once.
        if (again) ctx.note(`a second token was created with the reused code (authorization ${again.id})`);
      }
    },
  },
  {
    id: "OAUTH-NONWEB-003",
    title: "Get-or-create by client and fingerprint: 201 with the token, then 200 with the same authorization and the token not shown again",
    area: "oauth",
    seed: NONWEB_SEED,
    rules: ["D-REF-NONWEB-GET-CREATE", "D-NONWEB-AUTHORIZATIONS", "D-SCHEMA-AUTHORIZATION-TOKEN"],
    needs: ["user", "basic", "app"],
    async run(ctx) {
      requireAuthorizationsApi(ctx);
      const basic = userBasic(ctx);
      const app = ctx.profile.app!;
      const fingerprint = `conformance-${nonce()}`;
      const put = (note: string) =>
        nonweb(ctx, { operationId: "getOrCreateAuthorizationForAppAndFingerprint", params: { client_id: app.clientId, fingerprint }, basic, json: { client_secret: app.clientSecret, scopes: ["public_repo"], note } });
      let id: number | undefined;
      try {
        const first = await put(freshNote("OAUTH-NONWEB-003"));
        check.status(first.status, 201, `PUT /authorizations/clients/${app.clientId}/${fingerprint} creates the authorization (201)`);
        const created = first.json<Authorization>();
        id = created.id;
        check.ok(typeof created.token === "string" && created.token.length > 0, "the creating answer carries the token", { actual: created.token, pointer: "/body/token" });
        ctx.rule("D-NONWEB-AUTHORIZATIONS").equal(created.app?.client_id, app.clientId, "the authorization is the application's", "/body/app/client_id");
        ctx.rule("D-NONWEB-AUTHORIZATIONS").equal(created.fingerprint, fingerprint, "fingerprint is the path's", "/body/fingerprint");
        check.equal(await tokenStatus(ctx, created.token), 200, "the token is taken on the API", "/status");

        const second = await put(freshNote("OAUTH-NONWEB-003"));
        check.status(second.status, 200, "the same client and fingerprint again: 200 with the existing authorization");
        const existing = second.json<Authorization>();
        check.equal(existing.id, created.id, "the existing authorization is returned, not a new one", "/body/id");
        ctx.rule("D-SCHEMA-AUTHORIZATION-TOKEN").equal(existing.token, "", "the token is shown only once: the second answer has token \"\"", "/body/token");
        check.equal(await tokenStatus(ctx, created.token), 200, "the first token still works after the second call", "/status");
      } finally {
        await tidy(ctx, basic, id);
      }
    },
  },
  {
    id: "OAUTH-NONWEB-004",
    title: "The authorizations API: unknown body keys ignored; a duplicate note, overlong values, a wrong client and unknown scopes refused with 422",
    area: "oauth",
    seed: NONWEB_SEED,
    rules: ["D-SCHEMA-REQUEST-BODIES", "D-REF-NONWEB-DUPLICATE-NOTE", "D-REF-NONWEB-LENGTHS", "D-REF-NONWEB-BODY-CLIENT", "D-REF-OAUTH-UNKNOWN-SCOPES", "D-SCHEMA-VALIDATION-ERROR"],
    needs: ["user", "basic", "app"],
    async run(ctx) {
      requireAuthorizationsApi(ctx);
      const basic = userBasic(ctx);
      const app = ctx.profile.app!;
      const note = freshNote("OAUTH-NONWEB-004");
      const post = (json: Record<string, unknown>) => nonweb(ctx, { operationId: "createAuthorization", basic, json });
      const refused = (rule: string, res: HttpResponse, field: string, code: string | readonly string[], what: string) => {
        const r: Checks = ctx.rule(rule);
        r.status(res.status, 422, `${what}: 422 Validation Failed`);
        // errors[] is the validation-error shape's (D-SCHEMA-VALIDATION-ERROR).
        if (ctx.decisions.off("D-SCHEMA-VALIDATION-ERROR")) return;
        const items = errorItems(res);
        const codes = typeof code === "string" ? [code] : code;
        ctx.rule("D-SCHEMA-VALIDATION-ERROR").ok(items.some((i) => i.field === field && codes.includes(i.code ?? "")), `${what}: the error names ${field} (${codes.join(" or ")})`, { expected: { field, code }, actual: items, pointer: "/body/errors" });
      };
      let id: number | undefined;
      try {
        const created = await createToken(ctx, basic, { scopes: [], note, conformance_unknown_key: "ignored" });
        id = created.id;
        refused("D-REF-NONWEB-DUPLICATE-NOTE", await post({ scopes: [], note }), "description", "already_exists", "the same note again");
        refused("D-REF-NONWEB-LENGTHS", await post({ scopes: [], note: "n".repeat(1025) }), "note", "invalid", "a note of 1025 characters");
        refused("D-REF-NONWEB-LENGTHS", await post({ scopes: [], note: freshNote("OAUTH-NONWEB-004"), fingerprint: "f".repeat(256) }), "fingerprint", "invalid", "a fingerprint of 256 characters");
        refused("D-REF-NONWEB-BODY-CLIENT", await post({ scopes: [], note: freshNote("OAUTH-NONWEB-004"), client_id: `conformance-unknown-${nonce()}`, client_secret: "x" }), "client_id", "invalid", "an unknown client_id in the body");
        refused("D-REF-NONWEB-BODY-CLIENT", await post({ scopes: [], note: freshNote("OAUTH-NONWEB-004"), client_id: app.clientId, client_secret: `wrong-${nonce()}` }), "client_secret", "invalid", "the application's client_id with a wrong secret");
        const unknown = await post({ scopes: ["conformance-no-such-scope"], note: freshNote("OAUTH-NONWEB-004") });
        ctx.rule("D-REF-OAUTH-UNKNOWN-SCOPES").status(unknown.status, 422, "an unknown scope in the non-web flow: 422");
      } finally {
        await tidy(ctx, basic, id);
      }
    },
  },
  {
    id: "OAUTH-NONWEB-005",
    title: "A NUL or a lone surrogate in a JSON body is refused with 422 invalid on its field; a proper surrogate pair is kept exactly",
    area: "oauth",
    seed: NONWEB_SEED,
    rules: ["D-REF-NONWEB-NUL", "D-REF-NONWEB-LONE-SURROGATES", "D-SCHEMA-VALIDATION-ERROR"],
    needs: ["user", "basic"],
    async run(ctx) {
      requireAuthorizationsApi(ctx);
      const basic = userBasic(ctx);
      const base = freshNote("OAUTH-NONWEB-005");
      const invalidNote = (rule: string, res: HttpResponse, what: string) => {
        const r: Checks = ctx.rule(rule);
        r.status(res.status, 422, `${what}: 422, never a 5xx`);
        // errors[] is the validation-error shape's (D-SCHEMA-VALIDATION-ERROR).
        if (ctx.decisions.off("D-SCHEMA-VALIDATION-ERROR")) return;
        const items = errorItems(res);
        ctx.rule("D-SCHEMA-VALIDATION-ERROR").ok(items.some((i) => i.field === "note" && i.code === "invalid"), `${what}: invalid on note`, { expected: { field: "note", code: "invalid" }, actual: items, pointer: "/body/errors" });
      };
      invalidNote("D-REF-NONWEB-NUL", await nonweb(ctx, { operationId: "createAuthorization", basic, json: JSON.stringify({ scopes: [], note: `${base} \u0000 nul` }) }), "a NUL in note");
      // JSON.stringify writes a lone surrogate as the escape \ud800, which is what goes on the wire.
      invalidNote("D-REF-NONWEB-LONE-SURROGATES", await nonweb(ctx, { operationId: "createAuthorization", basic, json: JSON.stringify({ scopes: [], note: `${base} \ud800 lone` }) }), "a lone surrogate in note");
      const emoji = `${base} \u{1F600}`;
      let id: number | undefined;
      try {
        const created = await createToken(ctx, basic, { scopes: [], note: emoji });
        id = created.id;
        const read = await nonweb(ctx, { operationId: "getAuthorization", params: { authorization_id: created.id }, basic });
        ctx.rule("D-REF-NONWEB-LONE-SURROGATES").equal(read.json<Authorization>().note, emoji, "a proper surrogate pair (an emoji) is stored and read back exactly", "/body/note");
      } finally {
        await tidy(ctx, basic, id);
      }
    },
  },
  {
    id: "OAUTH-NONWEB-006",
    title: "Basic authentication is checked before the body: a stranger's malformed request gets 401, not 400 or 422",
    area: "oauth",
    seed: NONWEB_SEED,
    rules: ["D-REF-NONWEB-BASIC-FIRST"],
    needs: [],
    async run(ctx) {
      requireAuthorizationsApi(ctx);
      const stranger = { username: `conformance-nobody-${nonce()}`, password: `not-a-password-${nonce()}` };
      const bad = { scopes: "not-an-array", note: 42 };
      const withStranger = await nonweb(ctx, { operationId: "createAuthorization", basic: stranger, json: bad });
      check.status(withStranger.status, 401, "unknown Basic credentials with a malformed body: 401");
      const anonymous = await ctx.http.request({ operationId: "createAuthorization", json: bad });
      check.status(anonymous.status, 401, "no credentials with a malformed body: 401");
      const broken = await ctx.http.request({ operationId: "createAuthorization", path: "/authorizations", method: "POST", basic: stranger, body: "{not json", headers: { "content-type": "application/json" } });
      check.status(broken.status, 401, "unknown Basic credentials with a body that is not JSON: 401");
    },
  },
];
