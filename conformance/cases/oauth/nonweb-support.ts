/**
 * What the non-web flow cases share (seed: Authentication › Non-web flow — "An OAuth token can be
 * created with Basic Authentication … Two-factor authentication must be handled where enabled";
 * the interface itself is the contract's choice, D-NONWEB-AUTHORIZATIONS: the authorizations API
 * under Basic authentication, and D-NONWEB-APP-TOKENS: the application endpoints). A token a case
 * creates is deleted again by the case (`tidy`), through a side client after a failure so the
 * curl line reported stays the request that showed it.
 */
import { createHash } from "node:crypto";
import type { CaseContext } from "../../core/types.ts";
import type { ProfileTwoFactorUser } from "../../core/profile.ts";
import { HttpClient, type HttpResponse, type RequestOptions } from "../../core/http.ts";
import { check } from "../../core/failure.ts";
import { nonce } from "../../core/random.ts";
import { forgetAuthorization, forgetToken, rememberAuthorization } from "./made.ts";
import { codeAccepted, totpCode, withFreshCode } from "./totp-steps.ts";

export { totpCode };

export const NONWEB_SEED = "Authentication › Non-web flow";

/** The contract's Authorization, as far as the cases read it (the validators check the whole shape). */
export interface Authorization {
  id: number;
  url: string;
  scopes: string[];
  token: string;
  token_last_eight: string;
  hashed_token: string;
  app: { client_id: string; name: string; url: string };
  note: string | null;
  note_url: string | null;
  fingerprint: string | null;
  user?: { login: string };
}

export interface ValidationFailed {
  message: string;
  errors?: { resource?: string; field?: string; code?: string; message?: string }[];
}

export type Basic = { username: string; password: string };

/**
 * The token-creation interface is the contract's choice (the seed does not say where it is): a
 * target that chose another one is not checked by these cases, and says so.
 */
export function requireAuthorizationsApi(ctx: CaseContext): void {
  if (ctx.decisions.off("D-NONWEB-AUTHORIZATIONS")) {
    ctx.skip("not checked: D-NONWEB-AUTHORIZATIONS is switched off in the profile (the seed does not say where the non-web flow's interface is)");
  }
}

/**
 * For the seed's own non-web cases (a token made with Basic, two-factor handled): the seed does
 * not say where the interface is, so the suite tries the one place it knows, POST /authorizations,
 * even when the profile switches D-NONWEB-AUTHORIZATIONS off — only that decision's own
 * assertions are left out then. `absent` skips the case when the target has nothing there.
 */
export function seedNonWeb(ctx: CaseContext): { absent(res: HttpResponse): void } {
  const off = ctx.decisions.off("D-NONWEB-AUTHORIZATIONS");
  if (off) ctx.note("D-NONWEB-AUTHORIZATIONS is switched off: the seed's part is checked at POST /authorizations, the contract's details are left out");
  return {
    absent(res) {
      if (off && (res.status === 404 || res.status === 405)) ctx.skip(`not checked: POST /authorizations answered ${res.status} and D-NONWEB-AUTHORIZATIONS is switched off, so the suite does not know where this target creates tokens with Basic authentication`);
    },
  };
}

/** users[0]'s login and password (Basic). */
export function userBasic(ctx: CaseContext): Basic {
  const user = ctx.profile.users[0];
  if (!user?.password) ctx.skip("profile has no password for users[0] (the non-web flow authenticates with Basic)");
  return { username: user.login, password: user.password };
}

/** A note no other run uses (notes are unique per user and fingerprint on the contract's API). */
export function freshNote(caseId: string): string {
  return `conformance ${caseId} ${nonce()}`;
}

/**
 * An authorizations-API request with Basic authentication, validated against the contract. What
 * it creates is recorded for the case's clean-up (made.ts) whether or not the case expected it —
 * an input the case meant to be refused may be accepted — and what it deletes is struck off.
 */
export async function nonweb(ctx: CaseContext, options: RequestOptions & { basic: Basic; otp?: string; client?: HttpClient }): Promise<HttpResponse> {
  const { client, otp, ...rest } = options;
  const res = await (client ?? ctx.http).request({ ...rest, headers: { ...(rest.headers ?? {}), ...(otp !== undefined ? { "x-service-otp": otp } : {}) } });
  const op = rest.operationId;
  const twoFactorUser = ctx.profile.twoFactor?.login === options.basic.username ? ctx.profile.twoFactor : undefined;
  if (twoFactorUser && otp !== undefined && res.status >= 200 && res.status < 300) codeAccepted(ctx, twoFactorUser, otp);
  const created = (op === "createAuthorization" && res.status >= 200 && res.status < 300) || ((op === "getOrCreateAuthorizationForApp" || op === "getOrCreateAuthorizationForAppAndFingerprint") && res.status === 201);
  if (created) {
    const id = madeId(res);
    if (id !== undefined) rememberAuthorization(ctx, { id, basic: options.basic, ...(twoFactorUser && otp !== undefined ? { otp } : {}) });
    else ctx.note(`left behind, perhaps: ${op} answered ${res.status} without an authorization id the suite could delete`);
  }
  if (op === "deleteAuthorization" && ((res.status >= 200 && res.status < 300) || res.status === 404)) forgetAuthorization(ctx, Number(rest.params?.authorization_id), options.basic.username);
  return res;
}

function madeId(res: HttpResponse): number | undefined {
  try {
    const id = (JSON.parse(res.text) as { id?: unknown } | null)?.id;
    return typeof id === "number" && Number.isInteger(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** POST /authorizations → 201 with the Authorization, or the case fails. */
export async function createToken(ctx: CaseContext, basic: Basic, body: Record<string, unknown>, otp?: string): Promise<Authorization> {
  const res = await nonweb(ctx, { operationId: "createAuthorization", basic, json: body, ...(otp !== undefined ? { otp } : {}) });
  check.status(res.status, 201, "POST /authorizations with Basic authentication creates a token (201)");
  const created = res.json<Authorization>();
  check.ok(typeof created.token === "string" && created.token.length > 0, "the created authorization carries its token", { actual: created.token, pointer: "/body/token" });
  return created;
}

/**
 * Deletes an authorization a case made (best effort, on a side client, not validated: tidying is
 * not what is checked and decides no verdict). For the two-factor user it sends a code of a later
 * time step than the one that created the authorization (totp-steps.ts): that code was spent.
 */
export async function tidy(ctx: CaseContext, basic: Basic, id: number | undefined, otp?: string): Promise<void> {
  await removeAuthorization(ctx, basic, id, otp);
}

/** tidy, answering the two-factor code it sent last (the next removal for that user sends a later one). */
export async function removeAuthorization(ctx: CaseContext, basic: Basic, id: number | undefined, otp?: string): Promise<string | undefined> {
  if (id === undefined) return undefined;
  const side = new HttpClient(ctx.baseUrl, ctx.authUrl);
  const user = ctx.profile.twoFactor?.login === basic.username ? ctx.profile.twoFactor : undefined;
  // The code last sent, for a second clean-up of the same user to send a later one.
  let sent = otp;
  const send = (code?: string) => {
    sent = code;
    return nonweb(ctx, { operationId: "deleteAuthorization", params: { authorization_id: id }, basic, client: side, validate: false, ...(code !== undefined ? { otp: code } : {}) });
  };
  try {
    const res = user ? (await withFreshCode(ctx, user, send, otp !== undefined ? { after: otp } : {})).res : await send(otp);
    if ((res.status < 200 || res.status >= 300) && res.status !== 404) ctx.note(`left behind: authorization ${id} of ${basic.username} (DELETE /authorizations/${id} answered ${res.status})`);
    else forgetAuthorization(ctx, id, basic.username);
  } catch (error) {
    ctx.note(`left behind: authorization ${id} of ${basic.username} (DELETE /authorizations/${id} failed: ${(error as Error).message})`);
  }
  return sent;
}

/**
 * Whether `token` is taken on an API request that needs one (users[0]'s own events, which any
 * token of the user may read): 200 when it is, 401 when it is refused. `validate: false` for a
 * clean-up's question, which decides no verdict.
 */
export async function tokenStatus(ctx: CaseContext, token: string, options: { validate?: boolean } = {}): Promise<number> {
  const login = ctx.profile.users[0]!.login;
  const res = await ctx.http.request({ operationId: "listUserEvents", params: { username: login }, token, ...(options.validate === false ? { validate: false } : {}) });
  // Seen refused: gone, so the clean-up need not ask again (each such request is one more
  // against the client address on a target that counts bad credentials there).
  if (res.status === 401) forgetToken(ctx, token);
  return res.status;
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** A 422's errors as `field:code` pairs, for messages and matching. */
export function errorItems(res: HttpResponse): { field?: string; code?: string }[] {
  try {
    return res.json<ValidationFailed>().errors ?? [];
  } catch {
    return [];
  }
}

/** The authorization's scopes as a sorted list. */
export function sortedScopes(a: { scopes?: readonly string[] }): string[] {
  return [...(a.scopes ?? [])].sort();
}

/** The two-factor user of the profile, or the case is skipped. */
export function twoFactorUser(ctx: CaseContext): ProfileTwoFactorUser {
  const user = ctx.profile.twoFactor;
  if (!user) ctx.skip("profile has no two-factor user (twoFactor: login, password, totpSecret)");
  return user;
}

/** A code of the right length that is no valid code of the steps around now (two each way). */
export function wrongTotpCode(user: ProfileTwoFactorUser, now = Date.now()): string {
  const near = new Set([-2, -1, 0, 1, 2].map((o) => totpCode(user, o, now)));
  const digits = user.digits ?? 6;
  for (let i = 0; ; i++) {
    const candidate = String((Number(totpCode(user, 0, now)) + 123_457 * (i + 1)) % 10 ** digits).padStart(digits, "0");
    if (!near.has(candidate)) return candidate;
  }
}
