/**
 * What the OAuth cases share: the seed sections they cite, going through the authorize page and
 * reading its redirect (a code, or an error for the registered callback), the token exchange in
 * its three formats, and tidying up — a case that obtained a token revokes that token again (never the whole grant, which may hold the profile's own token), so
 * the next case sees the consent page as a first-time user would (and a deny can be pressed).
 */
import { createRequire } from "node:module";
import { validateSchema } from "../../../generated/validators/index.js";
import type { CaseContext } from "../../core/types.ts";
import type { ProfileApp } from "../../core/profile.ts";
import type { HttpResponse } from "../../core/http.ts";
import { check, type Checks } from "../../core/failure.ts";
import { tokenStatus } from "./nonweb-support.ts";
import { forgetToken, rememberToken } from "./made.ts";

export const SEED = {
  flow: "Authentication › Web application flow",
  redirect: "Authentication › Web application flow (Redirect URI)",
  authorize: "Endpoints › D › GET {auth_url}/login/oauth/authorize",
  token: "Endpoints › D › POST {auth_url}/login/oauth/access_token",
  authorizeErrors: "Errors › Authorization request errors",
  tokenErrors: "Errors › Access token request errors",
  scopes: "Authentication › Web application flow (scope normalization)",
  scopeHeaders: "Authentication › Scope headers",
  sending: "Authentication › Sending the token",
} as const;

export const OAUTH_NEEDS = ["app", "authorize"] as const;

export function app(ctx: CaseContext): ProfileApp {
  const a = ctx.profile.app;
  if (!a) ctx.skip("the profile has no OAuth application");
  return a;
}

export function callback(ctx: CaseContext): URL {
  return new URL(app(ctx).callbackUrl);
}

/** A random state, to tell this case's redirects from any other's. */
export function freshState(): string {
  return `st-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
}

/** The query of a redirect as single values; a parameter sent twice is itself a defect. */
export function redirectQuery(location: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of new Set(location.searchParams.keys())) {
    const all = location.searchParams.getAll(key);
    check.equal(all.length, 1, `the redirect carries "${key}" once`, `/headers/location/${key}`);
    out[key] = all[0]!;
  }
  return out;
}

function sameTarget(a: URL, b: URL): boolean {
  return a.origin === b.origin && a.pathname === b.pathname;
}

/** Through the authorize page expecting a code at `expectedTarget` (default: the callback). */
export async function expectCode(ctx: CaseContext, query: Record<string, string>, expectedTarget?: string): Promise<{ location: URL; code: string; params: Record<string, string> }> {
  const location = await ctx.authorize({ client_id: app(ctx).clientId, ...query });
  const params = redirectQuery(location);
  check.ok(!params.error, `the authorize request was refused with ${params.error}`, { expected: "a redirect with code", actual: location.href, pointer: "/headers/location" });
  check.ok(params.code, "the redirect carries a code", { expected: "code=…", actual: location.href, pointer: "/headers/location" });
  const target = new URL(expectedTarget ?? app(ctx).callbackUrl);
  check.ok(sameTarget(location, target), "the code is sent to the redirect URI", { expected: `${target.origin}${target.pathname}`, actual: location.href, pointer: "/headers/location" });
  return { location, code: params.code!, params };
}

/**
 * An authorize error: the redirect goes to the registered callback URL with error,
 * error_description, error_uri (OauthAuthorizeError) and the state sent. Its failures count
 * against `rule` when the error itself is a decision (invalid_request), else the case's first rule.
 */
export function checkErrorRedirect(ctx: CaseContext, location: URL, error: string, state: string | undefined, rule?: string): Record<string, string> {
  const c: Checks = rule ? ctx.rule(rule) : check;
  const params = redirectQuery(location);
  c.equal(params.error, error, `the redirect reports error=${error}`, "/headers/location/error");
  const cb = callback(ctx);
  c.ok(sameTarget(location, cb), "errors go to the registered callback URL", { expected: `${cb.origin}${cb.pathname}`, actual: `${location.origin}${location.pathname}`, pointer: "/headers/location" });
  c.ok(!params.code, "an error redirect carries no code", { actual: location.href, pointer: "/headers/location/code" });
  const fields = Object.fromEntries(Object.entries(params).filter(([k]) => ["error", "error_description", "error_uri", "state"].includes(k)));
  const verdict = validateSchema("OauthAuthorizeError", fields);
  if (!verdict.valid) c.fail(`the error parameters break OauthAuthorizeError: ${verdict.errors.map((e) => `${e.path || "/"} ${e.message}`).join("; ")}`, { actual: fields, pointer: "/headers/location" });
  c.equal(params.state, state, "the state comes back unchanged", "/headers/location/state");
  return params;
}

export type TokenBody = Record<string, string>;

let xmlParser: { parse(text: string): Record<string, unknown> } | undefined;
function xml(): { parse(text: string): Record<string, unknown> } {
  if (!xmlParser) {
    const { XMLParser } = createRequire(import.meta.url)("fast-xml-parser") as { XMLParser: new (o: object) => { parse(text: string): Record<string, unknown> } };
    xmlParser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true });
  }
  return xmlParser;
}

/** The XML body's root element name and its children as strings. */
export function parseXmlBody(text: string): { root: string | undefined; fields: TokenBody } {
  const doc = xml().parse(text);
  const roots = Object.keys(doc).filter((k) => !k.startsWith("?"));
  const root = roots.length === 1 ? roots[0] : undefined;
  const node = root ? doc[root] : undefined;
  const fields: TokenBody = {};
  if (node && typeof node === "object") for (const [k, v] of Object.entries(node)) fields[k] = typeof v === "string" ? v : String(v ?? "");
  return { root, fields };
}

export function mediaTypeOf(res: HttpResponse): string {
  return (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** The token response's fields, read the way its Content-Type says. */
export function tokenBody(res: HttpResponse): TokenBody {
  const type = mediaTypeOf(res);
  if (type === "application/json") return res.json<TokenBody>();
  if (type === "application/xml" || type === "text/xml") return parseXmlBody(res.text).fields;
  return Object.fromEntries(new URLSearchParams(res.text));
}

/** POST the token request (a form, as OAuth clients send it), with the given Accept. */
export async function exchange(ctx: CaseContext, fields: Record<string, string>, accept = "application/json"): Promise<{ res: HttpResponse; body: TokenBody }> {
  const res = await ctx.http.request({ operationId: "createAccessToken", form: fields, headers: { accept } });
  const body = tokenBody(res);
  // Any token handed out is the case's to revoke, even one the case expected to be refused.
  rememberToken(ctx, typeof body.access_token === "string" ? body.access_token : undefined);
  // An error's status is checked by the cases about errors (checkTokenStatus), under its decision.
  if (body.error === undefined) checkTokenStatus(ctx, res, body);
  return { res, body };
}

/**
 * The status of a token answer. A token comes with 200 (RFC 6749 §5.1, the OAuth 2 the seed
 * describes). The status of an error is "not shown" in the seed: the contract answers 200
 * (D-OAUTH-TOKEN-ERROR-STATUS), a profile may declare another (RFC 6749's 400) or switch the
 * decision off, and then any status goes as long as the body is the error in the Accept format.
 * A case that checks an error's status names D-OAUTH-TOKEN-ERROR-STATUS among its rules.
 */
export function checkTokenStatus(ctx: CaseContext, res: HttpResponse, body: TokenBody): void {
  if (body.error === undefined) {
    check.status(res.status, 200, "a token answer has status 200");
    return;
  }
  const declared = ctx.decisions.value("D-OAUTH-TOKEN-ERROR-STATUS");
  ctx.rule("D-OAUTH-TOKEN-ERROR-STATUS").status(res.status, declared, `a token error (${body.error}) is answered with ${declared} (D-OAUTH-TOKEN-ERROR-STATUS)`);
}

/** XML by the seed's reading (any XML media type); the contract sends application/xml (D-OAUTH-TOKEN-FORMATS). */
export function checkXmlMediaType(ctx: CaseContext, res: HttpResponse, what: string): void {
  const type = mediaTypeOf(res);
  check.ok(type === "application/xml" || type === "text/xml" || type.endsWith("+xml"), `${what}: the body is XML`, { expected: "an XML media type", actual: res.headers.get("content-type"), pointer: "/headers/content-type" });
  ctx.rule("D-OAUTH-TOKEN-FORMATS").equal(type, "application/xml", `${what}: the XML media type is application/xml (D-OAUTH-TOKEN-FORMATS)`, "/headers/content-type");
}

export function credentials(ctx: CaseContext): { client_id: string; client_secret: string } {
  const a = app(ctx);
  return { client_id: a.clientId, client_secret: a.clientSecret };
}

/** The whole flow: a token for `scope`, its granted scope and the code it came from. */
export async function tokenFor(ctx: CaseContext, scope: string): Promise<{ token: string; scope: string; code: string }> {
  const { code } = await expectCode(ctx, { scope, state: freshState() });
  const { body } = await exchange(ctx, { ...credentials(ctx), code });
  check.ok(!body.error, `the code exchange failed with ${body.error}`, { expected: "access_token", actual: body, pointer: "/body/error" });
  check.ok(body.access_token, "the token response has access_token", { actual: body, pointer: "/body/access_token" });
  return { token: body.access_token!, scope: body.scope ?? "", code };
}

/**
 * Revoke a token the case obtained itself, through what the seed and the profile give: the
 * application's token API when the target keeps it (D-NONWEB-APP-TOKENS; only that token), else
 * the seed's own way — users[0] revokes the application on its review page (the whole grant, so
 * the next authorize shows the consent page again, as the cases need). Best effort: nothing here
 * fails the case, and a token still taken afterwards is noted as left behind. Revoking the
 * application's whole grant could also revoke the profile's own token had it come from the same
 * application, so the review page is used only where the profile switches the token API off or
 * where that API left the token working, and it is noted when that happened.
 */
export async function revokeToken(ctx: CaseContext, token: string): Promise<void> {
  if (!token) return;
  forgetToken(ctx, token);
  const a = app(ctx);
  let viaPage = ctx.decisions.off("D-NONWEB-APP-TOKENS");
  if (!viaPage) {
    try {
      const res = await ctx.http.request({ operationId: "revokeApplicationToken", params: { client_id: a.clientId, access_token: token }, basic: { username: a.clientId, password: a.clientSecret }, validate: false });
      if (res.status >= 200 && res.status < 300) return;
      // Not revoked there (no such API, or it refused): the review page, only if the token still works.
      viaPage = (await tokenStatus(ctx, token, { validate: false }).catch(() => 0)) < 300;
      ctx.note(`tidying up: revoking the case's token through the application API answered ${res.status}${viaPage ? "; the token still works, so it was revoked on the review page" : ""}`);
    } catch (error) {
      ctx.note(`tidying up: revoking the case's token through the application API failed: ${(error as Error).message}`);
      viaPage = true;
    }
  }
  if (!viaPage) return; // the application API refused, and the token was already refused: nothing to remove
  // The review page revokes the application's whole grant. Whether it did is read there too (the
  // web host), not by trying the token: a request with a revoked token is one more against the
  // client address on a target that counts bad credentials there.
  try {
    await revokeOnReviewPage(ctx);
  } catch (error) {
    ctx.note(`tidying up: revoking on the review page failed: ${(error as Error).message}`);
  }
  if ((await grantHeld(ctx)) !== false) ctx.note(`left behind: the OAuth token the case obtained for ${a.clientId} may still be taken — the application API did not revoke it, and the review page still lists the application (or could not be read)`);
  const own = ctx.profile.users[0]?.token;
  if (own && (await tokenStatus(ctx, own, { validate: false }).catch(() => 0)) === 401) ctx.note("tidying up: after revoking on the review page, users[0]'s profile token is refused — it came from the same application; give users[0] a token of its own");
}

/** Whether users[0] holds a grant for the profile's application, as the seed's review page shows it (a Revoke button); undefined when it cannot tell. */
export async function grantHeld(ctx: CaseContext): Promise<boolean | undefined> {
  if (!ctx.profile.app || !ctx.profile.users[0]?.password) return undefined;
  try {
    const { reviewAs, revokeButton } = await import("./review-session.ts");
    const { page } = await reviewAs(ctx, ctx.profile.users[0]);
    if (page.status === 404) return false;
    return page.status === 200 ? revokeButton(page) !== undefined : undefined;
  } catch {
    return undefined;
  }
}

/** users[0] revokes the profile's application on the review page (seed: Authorization review link). */
export async function revokeOnReviewPage(ctx: CaseContext): Promise<void> {
  const { reviewAs, revokeButton } = await import("./review-session.ts");
  const { formData } = await import("../../authorize/html-forms.ts");
  const { session, page, url } = await reviewAs(ctx, ctx.profile.users[0]!);
  if (page.status === 404) return; // no grant left: nothing to revoke
  const revoke = revokeButton(page);
  if (!revoke) throw new Error(`the review page (${page.status}) has no Revoke button`);
  const done = await session.post(url, revoke.form.action, formData(revoke.form, {}, revoke.button));
  if (done.status >= 400) throw new Error(`pressing Revoke answered ${done.status}`);
}

/**
 * The seed's "comma-separated list" of scopes: names separated by commas, with or without spaces
 * around them (the contract's `, ` is D-SCOPE-HEADERS). Space-separated names are not one.
 */
export const COMMA_LIST = /^\s*([^,\s]+(\s*,\s*[^,\s]+)*)?\s*$/;

/** A comma-separated scope list as a sorted set (order is not part of the rule). */
export function scopeSet(value: string | null | undefined): string[] {
  return [...new Set((value ?? "").split(/[\s,]+/).map((s) => s.trim()).filter(Boolean))].sort();
}
