/**
 * CONTRACT-REQ-* and CONTRACT-AUTH-*: how the API host answers requests the contract's request
 * handling decides (spec/DECISIONS.md, Request handling and the non-web flow details): an unknown
 * path or method, a malformed path value or number, an `Accept` it cannot serve or the v3 media
 * type, a body of the wrong type, a path value over 2048 characters, a token where Basic is
 * required and Basic where an operation takes none. Each answer is checked by status (the case's
 * own decision) and error shape `{message, documentation_url}` with its wording (D-ERRORS, so a
 * target with other error texts can switch that off), never just "some 4xx".
 */
import type { Case, CaseContext } from "../../core/types.ts";
import type { HttpResponse } from "../../core/http.ts";
import { check, type Checks } from "../../core/failure.ts";
import { mainToken, publicRepo } from "../profile.ts";

const SEED = "Errors › Other (spec/DECISIONS.md: Request handling)";

/** `rule`: the decision the status answers to (default: the case's first rule). */
function errorShape(ctx: CaseContext, res: HttpResponse, status: number, where: string, message?: string, rule?: string): void {
  (rule ? ctx.rule(rule) : check).status(res.status, status, where);
  const errors: Checks = ctx.rule("D-ERRORS");
  let body: { message?: unknown; documentation_url?: unknown } = {};
  try {
    body = JSON.parse(res.text) as typeof body;
  } catch {
    errors.fail(`${where}: the ${status} body is the error shape {message, documentation_url} (D-ERRORS)`, { expected: "JSON", actual: res.text.slice(0, 200), pointer: "/body" });
  }
  errors.ok(typeof body.message === "string" && typeof body.documentation_url === "string", `${where}: the ${status} body is the error shape {message, documentation_url} (D-ERRORS)`, { actual: body, pointer: "/body" });
  if (message !== undefined) errors.equal(body.message, message, `${where}: the message (D-ERRORS)`, "/body/message");
}

function get(ctx: CaseContext, path: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return ctx.http.request({ method: "GET", path, headers, token: mainToken(ctx) });
}

export const REQUEST_CASES: Case[] = [
  {
    id: "CONTRACT-REQ-001",
    title: "An unknown path, or a known path with the wrong method, is 404 in the error shape",
    area: "contract",
    seed: SEED,
    rules: ["D-REQ-UNKNOWN-PATH", "D-ERRORS"],
    needs: ["user"],
    async run(ctx) {
      errorShape(ctx, await get(ctx, "/conformance-no-such-path"), 404, "GET /conformance-no-such-path");
      errorShape(ctx, await ctx.http.request({ method: "DELETE", path: "/events", token: mainToken(ctx) }), 404, "DELETE /events (the path exists for GET only)");
    },
  },
  {
    id: "CONTRACT-REQ-002",
    title: "A malformed path value is 404; a number spelled otherwise than in decimal is 404 in a path and 422 in a query",
    area: "contract",
    seed: SEED,
    rules: ["D-REQ-MALFORMED-PATH-VALUE", "D-REQ-NUMBERS", "D-INVALID-QUERY", "D-ERRORS"],
    needs: ["user", "public-repo", "issue"],
    async run(ctx) {
      const { full } = publicRepo(ctx);
      errorShape(ctx, await get(ctx, `/repos/${full}/hooks/abc`), 404, `GET /repos/${full}/hooks/abc`);
      const hex = `0x${ctx.profile.issue!.toString(16)}`;
      // A number spelled otherwise is D-REQ-NUMBERS' in a path and D-INVALID-QUERY's in a query:
      // each answer counts against the decision it probes, not the case's first (a target that
      // keeps D-REQ-MALFORMED-PATH-VALUE and answers page=0x2 otherwise switches one of those off).
      errorShape(ctx, await get(ctx, `/repos/${full}/issues/${hex}/events`), 404, `GET /repos/${full}/issues/${hex}/events (issue ${ctx.profile.issue} in hexadecimal)`, undefined, "D-REQ-NUMBERS");
      if (ctx.decisions.on("D-REQ-NUMBERS")) errorShape(ctx, await get(ctx, "/events?page=0x2"), 422, "GET /events?page=0x2", "Validation Failed", "D-INVALID-QUERY");
    },
  },
  {
    id: "CONTRACT-REQ-003",
    title: "The v3 media type, and an Accept the API cannot serve, both get the JSON representation",
    area: "contract",
    seed: "Versioning (spec/DECISIONS.md: Versioning; Request handling)",
    rules: ["D-VERSIONING", "D-REQ-UNSERVABLE-ACCEPT"],
    needs: ["user"],
    async run(ctx) {
      for (const accept of ["application/vnd.service.v3+json", "application/xml", "text/html"]) {
        const res = await ctx.http.request({ operationId: "listPublicEvents", headers: { accept }, token: mainToken(ctx) });
        check.status(res.status, 200, `GET /events with Accept: ${accept}`);
        check.equal(res.headers.get("content-type")?.split(";")[0]?.trim(), "application/json", `GET /events with Accept: ${accept} answers application/json`, "/headers/content-type");
        check.ok(Array.isArray(res.json()), `GET /events with Accept: ${accept}: the body is the array of events`, { pointer: "/body" });
      }
    },
  },
  {
    id: "CONTRACT-REQ-004",
    title: "A request body of a type the operation does not take is 415 in the error shape",
    area: "contract",
    seed: SEED,
    rules: ["D-REQ-WRONG-CONTENT-TYPE", "D-ERRORS"],
    needs: ["user", "public-repo", "hook-admin"],
    async run(ctx) {
      const { full } = publicRepo(ctx);
      const res = await ctx.http.request({ method: "POST", path: `/repos/${full}/hooks`, headers: { "content-type": "text/plain" }, body: "name=web", token: mainToken(ctx) });
      errorShape(ctx, res, 415, `POST /repos/${full}/hooks with Content-Type: text/plain`);
    },
  },
  {
    id: "CONTRACT-REQ-005",
    title: "A path value longer than 2048 characters is 414 in the error shape",
    area: "contract",
    seed: SEED,
    rules: ["D-REF-NONWEB-PATH-PARAMETERS", "D-ERRORS"],
    needs: ["user"],
    async run(ctx) {
      errorShape(ctx, await get(ctx, `/users/${"a".repeat(2049)}/events`), 414, "GET /users/<2049 characters>/events");
    },
  },
  {
    id: "CONTRACT-REQ-006",
    title: "A request body over the size limit (2 MiB against the 1 MiB default) is 413 in the error shape",
    area: "contract",
    seed: SEED,
    rules: ["D-REQ-TOO-LARGE-BODY", "D-ERRORS"],
    needs: ["user", "public-repo", "hook-admin"],
    async run(ctx) {
      const { full } = publicRepo(ctx);
      const body = JSON.stringify({ name: "web", config: { url: "https://conformance.invalid/too-large" }, padding: "x".repeat(2 * 1024 * 1024) });
      const res = await ctx.http.request({ method: "POST", path: `/repos/${full}/hooks`, headers: { "content-type": "application/json" }, body, token: mainToken(ctx) });
      errorShape(ctx, res, 413, `POST /repos/${full}/hooks with a 2 MiB body`);
    },
  },
  {
    id: "CONTRACT-REQ-007",
    title: "A form key sent twice to the token endpoint is read as missing: 200 with incorrect_client_credentials, no token",
    area: "contract",
    seed: "Endpoints › D › POST access_token (spec/DECISIONS.md: A form key sent twice)",
    rules: ["D-REQ-REPEATED-FORM-KEY", "D-OAUTH-TOKEN-ERROR-STATUS"],
    needs: ["app"],
    async run(ctx) {
      const app = ctx.profile.app!;
      const form = new URLSearchParams([["client_id", app.clientId], ["client_id", app.clientId], ["client_secret", app.clientSecret], ["code", "conformance-unknown-code"]]).toString();
      const res = await ctx.http.request({ method: "POST", host: "auth", path: "/login/oauth/access_token", headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }, body: form });
      const declared = ctx.decisions.value("D-OAUTH-TOKEN-ERROR-STATUS");
      const status: Checks = ctx.rule("D-OAUTH-TOKEN-ERROR-STATUS");
      status.status(res.status, declared, `POST /login/oauth/access_token with client_id twice: a token error, answered with ${declared} (D-OAUTH-TOKEN-ERROR-STATUS)`);
      const body = res.json<{ error?: string; access_token?: string }>();
      check.equal(body.error, "incorrect_client_credentials", "client_id sent twice counts as no client_id", "/body/error");
      check.ok(body.access_token === undefined, "no token is issued", { expected: "no access_token", actual: body.access_token, pointer: "/body/access_token" });
    },
  },
  {
    id: "CONTRACT-REQ-008",
    title: "A body on an operation that takes none is ignored, whatever its Content-Type; past the size limit it is 413",
    area: "contract",
    seed: SEED,
    rules: ["D-REQ-BODY-NOT-TAKEN", "D-REQ-TOO-LARGE-BODY", "D-ERRORS"],
    needs: ["user", "public-repo", "hook-admin"],
    async run(ctx) {
      // A hook that does not exist: the answer without a body is a 404, and must stay that one.
      const path = `/repos/${publicRepo(ctx).full}/hooks/2147483646/pings`;
      const bare = await ctx.http.request({ method: "POST", path, token: mainToken(ctx) });
      errorShape(ctx, bare, 404, `POST ${path} without a body`);
      for (const [type, body] of [["text", "not a media type"], ["a/b/c", "{}"], ["application/json", "{nope"], ["text/plain", "hello"]] as const) {
        const res = await ctx.http.request({ method: "POST", path, headers: { "content-type": type }, body, token: mainToken(ctx) });
        errorShape(ctx, res, 404, `POST ${path} with a body as Content-Type: ${type} (ignored: the same answer as without it)`);
      }
      const large = await ctx.http.request({ method: "POST", path, headers: { "content-type": "application/json" }, body: JSON.stringify({ padding: "x".repeat(2 * 1024 * 1024) }), token: mainToken(ctx) });
      errorShape(ctx, large, 413, `POST ${path} with a 2 MiB body`);
    },
  },
  {
    id: "CONTRACT-AUTH-001",
    title: "A token where Basic authentication is required is 401 Requires authentication",
    area: "contract",
    seed: "Authentication › Non-web flow (spec/DECISIONS.md: A token where Basic is required)",
    rules: ["D-REF-NONWEB-TOKEN-FOR-BASIC", "D-ERRORS"],
    needs: ["user"],
    async run(ctx) {
      const res = await ctx.http.request({ operationId: "listAuthorizations", token: mainToken(ctx) });
      errorShape(ctx, res, 401, "GET /authorizations with a token", "Requires authentication");
    },
  },
  {
    id: "CONTRACT-AUTH-002",
    title: "Basic authentication on an operation that does not take it is not read: the caller is anonymous",
    area: "contract",
    seed: "Authentication (spec/DECISIONS.md: Basic where an operation does not take it)",
    rules: ["D-REF-NONWEB-BASIC-ELSEWHERE", "D-ERRORS"],
    needs: ["user", "private-repo"],
    async run(ctx) {
      const user = ctx.profile.users[0]!;
      const password = user.password;
      if (!password) return ctx.skip("profile has no password for users[0]");
      const full = ctx.profile.repos!.private!;
      const [owner = "", repo = ""] = full.split("/");
      const withToken = await ctx.http.request({ operationId: "listRepoEvents", params: { owner, repo }, token: mainToken(ctx) });
      check.status(withToken.status, 200, `GET /repos/${full}/events with users[0]'s token`);
      const basic = await ctx.http.request({ operationId: "listRepoEvents", params: { owner, repo }, basic: { username: user.login, password } });
      errorShape(ctx, basic, 404, `GET /repos/${full}/events (a private repository) with users[0]'s right password as Basic: read as anonymous`);
    },
  },
];
