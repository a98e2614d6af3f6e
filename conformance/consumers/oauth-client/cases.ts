/**
 * The OAuth client suite's cases (`conformance --oauth-client`): what a web-flow client does
 * (seed: Authentication › Web application flow, Errors). IDs are stable (`OAUTH-CLIENT-TOPIC-NNN`).
 * The suite steers each sign-in from the browser and the authorization server: it denies on the
 * consent page, hands the client a forged state, spends the code before the client can, or moves
 * the server's clock past the code's lifetime — and judges the client by its final page, the token
 * requests it made and the answers they got (a success page counts only after a token answer).
 */
import { createHash, randomBytes } from "node:crypto";
import { CODE_LIFETIME_MS } from "../../../reference/store/codes.ts";
import { tokenMediaType } from "../../../reference/oauth/token.ts";
import { CaseFailure } from "../../core/failure.ts";
import { describeAnswer, gotToken } from "./token-relay.ts";
import { answered, authorizeRequest, expectHandledFailure, expectNoExchange, expectSuccess, type ClientCase, type ClientContext, type SignIn } from "./context.ts";
import type { TokenFormat } from "./profile.ts";

const SEED_FLOW = "Authentication › Web application flow";
const SEED_ERRORS = "Errors › Access token request errors";
const MEDIA: Record<TokenFormat, string> = { json: "application/json", form: "application/x-www-form-urlencoded", xml: "application/xml" };

/** A state the client never issued, of the same shape as the one it did. */
function otherState(state: string | null): string {
  const forged = randomBytes(24).toString("base64url");
  return state && forged === state ? `${forged}x` : forged;
}

function tokenCase(format: TokenFormat, n: number): ClientCase {
  return {
    id: `OAUTH-CLIENT-TOKEN-00${n}`,
    rules: ["S-OAUTH-TOKEN-FORMATS", "D-OAUTH-TOKEN-FORMATS"],
    title: `asks for the token in ${format} (Accept: ${MEDIA[format]}) and signs in with the answer in that format`,
    area: "oauth-client",
    seed: "Endpoints › D › POST access_token (formats)",
    async run(ctx) {
      const formats = ctx.profile.tokenFormats ?? { json: ctx.profile.startUrl };
      const startUrl = formats[format];
      if (!startUrl) ctx.skip(`the profile lists no sign-in asking for ${format} (tokenFormats.${format})`);
      const s = await ctx.signIn({ startUrl });
      const exchange = s.tokenRequests.at(-1);
      if (!exchange) throw new CaseFailure("the client made no token request", { expected: `POST /login/oauth/access_token with Accept: ${MEDIA[format]}`, actual: "none" });
      const answered = tokenMediaType(exchange.accept);
      if (answered !== MEDIA[format]) throw new CaseFailure(`the client's Accept header gets a ${answered} answer, not ${format}`, { expected: MEDIA[format], actual: exchange.accept || "(no Accept header)", pointer: "/headers/accept" });
      expectSuccess(s, ctx.profile, `with a ${format} token answer`);
    },
  };
}

/**
 * Holds the callback, makes its code unusable (`spoil`), then lets the client have it. The client
 * is judged only once its exchange was in fact refused with bad_verification_code: anything else
 * is a set-up problem of the case (`check` says what went wrong with the spoiling), not the client's.
 */
async function codeMadeUnusable(ctx: ClientContext, spoil: (code: string) => void, what: string, check: (exchange: SignIn["tokenRequests"][number]) => void = () => undefined): Promise<void> {
  let spoiled = false;
  const s = await ctx.signIn({
    onCallback: (url) => {
      const code = url.searchParams.get("code");
      if (code) {
        spoil(code);
        spoiled = true;
      }
      return undefined;
    },
  });
  if (!spoiled) throw new CaseFailure("the sign-in never reached the client's callback with a code", { actual: s.final.url });
  const exchange = s.tokenRequests[0];
  if (!exchange) throw new CaseFailure(`${what}: the client made no token request`, { expected: "an attempt to exchange the code, then a failure page", actual: "no token request" });
  check(exchange);
  if (exchange.answer?.fields.error !== "bad_verification_code") {
    throw new CaseFailure(`set-up: ${what} should have been refused with bad_verification_code, but ${answered({ ...s, tokenRequests: [exchange] })}`, { expected: "error=bad_verification_code", actual: describeAnswer(exchange.answer) });
  }
  expectHandledFailure(s, ctx.profile, what);
}

export const CLIENT_CASES: readonly ClientCase[] = [
  {
    id: "OAUTH-CLIENT-FLOW-001",
    rules: ["S-OAUTH-FLOW", "D-CONF-CONSUMER-SUITES"],
    title: "completes the web flow: authorize, the callback with code and state, one token exchange, signed in",
    area: "oauth-client",
    seed: SEED_FLOW,
    async run(ctx) {
      const s = await ctx.signIn();
      const authorize = authorizeRequest(s);
      if (authorize.searchParams.get("client_id") !== ctx.profile.clientId) {
        throw new CaseFailure("the authorize request names another client_id", { expected: ctx.profile.clientId, actual: authorize.searchParams.get("client_id"), pointer: "/query/client_id" });
      }
      expectSuccess(s, ctx.profile, "a normal sign-in");
      if (s.tokenRequests.length !== 1) throw new CaseFailure("the client should exchange the code exactly once", { expected: 1, actual: s.tokenRequests.length });
    },
  },
  {
    id: "OAUTH-CLIENT-STATE-001",
    rules: ["S-OAUTH-STATE"],
    title: "sends an unguessable state (16+ characters), a different one on every sign-in",
    area: "oauth-client",
    seed: `${SEED_FLOW} (state)`,
    async run(ctx) {
      const first = authorizeRequest(await ctx.signIn()).searchParams.get("state");
      if (!first) throw new CaseFailure("the authorize request has no state", { expected: "state=<random>", actual: null, pointer: "/query/state" });
      if (first.length < 16) throw new CaseFailure("the state is too short to be unguessable", { expected: "16 characters or more", actual: first, pointer: "/query/state" });
      const second = authorizeRequest(await ctx.signIn()).searchParams.get("state");
      if (second === first) throw new CaseFailure("two sign-ins sent the same state", { expected: "a new state per sign-in", actual: second, pointer: "/query/state" });
    },
  },
  {
    id: "OAUTH-CLIENT-STATE-002",
    rules: ["S-OAUTH-STATE"],
    title: "aborts when the callback's state differs from the one it sent: no token exchange, a failure page",
    area: "oauth-client",
    seed: `${SEED_FLOW} (step 2: a different state means a third party created the request)`,
    async run(ctx) {
      const s = await ctx.signIn({
        onCallback: (url) => {
          const forged = new URL(url);
          forged.searchParams.set("state", otherState(url.searchParams.get("state")));
          return forged.href;
        },
      });
      expectNoExchange(s, "a callback with a forged state");
      expectHandledFailure(s, ctx.profile, "a callback with a forged state");
    },
  },
  {
    id: "OAUTH-CLIENT-DENIED-001",
    rules: ["S-OAUTH-AUTHORIZE-ERRORS"],
    title: "handles access_denied (the user pressed deny): no token exchange, a failure page, no crash",
    area: "oauth-client",
    seed: "Errors › Authorization request errors (access_denied)",
    async run(ctx) {
      const s = await ctx.signIn({ decision: "deny" });
      if (s.callback?.searchParams.get("error") !== "access_denied") throw new CaseFailure("the authorization server did not redirect with access_denied", { actual: s.callback?.href ?? s.final.url });
      expectNoExchange(s, "access_denied");
      expectHandledFailure(s, ctx.profile, "access_denied");
    },
  },
  {
    id: "OAUTH-CLIENT-CODE-001",
    rules: ["S-OAUTH-TOKEN-ERRORS", "D-OAUTH-CODES"],
    title: "handles bad_verification_code for a code that was already used: a failure page, no crash",
    area: "oauth-client",
    seed: `${SEED_ERRORS} (bad_verification_code)`,
    // The suite spends the code with a copy of the client's own token request (its credentials and,
    // with PKCE, its code_verifier, which the suite cannot know beforehand), sent just before it:
    // the client's request then presents a code already used. A copy that got no token means the
    // code was not spent, and the client's refusal would not be about reuse: a set-up failure.
    run: (ctx) =>
      codeMadeUnusable(
        ctx,
        (code) => ctx.server.spendBeforeClient(code),
        "a reused code",
        (exchange) => {
          if (!gotToken(exchange.spentFirst)) {
            throw new CaseFailure(`set-up: the suite could not spend the code with a copy of the client's token request (answered ${describeAnswer(exchange.spentFirst)}), so the client's exchange is no reuse`, { expected: "a token for the copy", actual: describeAnswer(exchange.spentFirst) });
          }
        },
      ),
  },
  {
    id: "OAUTH-CLIENT-CODE-002",
    rules: ["S-OAUTH-TOKEN-ERRORS", "D-OAUTH-CODES"],
    title: "handles bad_verification_code for a code that expired: a failure page, no crash",
    area: "oauth-client",
    seed: `${SEED_ERRORS} (bad_verification_code)`,
    run: (ctx) => codeMadeUnusable(ctx, () => ctx.server.advanceClock(CODE_LIFETIME_MS + 60_000), "an expired code"),
  },
  tokenCase("json", 1),
  tokenCase("form", 2),
  tokenCase("xml", 3),
  {
    id: "OAUTH-CLIENT-REDIRECT-001",
    rules: ["S-OAUTH-REDIRECT-URI"],
    title: "sends redirect_uri consistently: the token request repeats the authorize request's value (or both omit it)",
    area: "oauth-client",
    seed: "Authentication › Redirect URLs",
    async run(ctx) {
      const s = await ctx.signIn();
      const asked = authorizeRequest(s).searchParams.get("redirect_uri");
      const exchange = s.tokenRequests.at(-1);
      if (!exchange) throw new CaseFailure("the client made no token request", { actual: s.final.url });
      const sent = exchange.fields.redirect_uri ?? null;
      if (asked !== null && sent !== asked) throw new CaseFailure("the token request's redirect_uri differs from the authorize request's", { expected: asked, actual: sent, pointer: "/body/redirect_uri" });
      if (asked === null && sent !== null && sent !== ctx.profile.callbackUrl) throw new CaseFailure("the token request names a redirect_uri the authorize request did not", { expected: "none (or the registered callback)", actual: sent, pointer: "/body/redirect_uri" });
      expectSuccess(s, ctx.profile, "a normal sign-in");
    },
  },
  {
    id: "OAUTH-CLIENT-PKCE-001",
    rules: ["D-CONF-CONSUMER-SUITES"],
    title: "uses PKCE as its profile says: code_challenge (S256) on the authorize request, the matching code_verifier on the token request",
    area: "oauth-client",
    seed: "Authentication › Web application flow (PKCE, RFC 7636)",
    async run(ctx) {
      if (!ctx.profile.pkce) ctx.skip("the profile says the client does not use PKCE (pkce: true to check it)");
      if (!ctx.server.supportsPkce) ctx.skip("the authorization server (the reference, per the contract) does not support PKCE yet: no code_challenge on the authorize operation");
      const s = await ctx.signIn();
      const authorize = authorizeRequest(s);
      const challenge = authorize.searchParams.get("code_challenge");
      if (!challenge || authorize.searchParams.get("code_challenge_method") !== "S256") {
        throw new CaseFailure("the authorize request has no S256 code_challenge", { expected: "code_challenge=<base64url sha256>, code_challenge_method=S256", actual: authorize.search, pointer: "/query/code_challenge" });
      }
      const verifier = s.tokenRequests.at(-1)?.fields.code_verifier;
      if (!verifier || !/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) throw new CaseFailure("the token request has no valid code_verifier (43–128 unreserved characters)", { actual: verifier ?? null, pointer: "/body/code_verifier" });
      const expected = createHash("sha256").update(verifier).digest("base64url");
      if (expected !== challenge) throw new CaseFailure("the code_verifier does not match the code_challenge", { expected: challenge, actual: expected, pointer: "/body/code_verifier" });
      expectSuccess(s, ctx.profile, "a PKCE sign-in");
    },
  },
];
