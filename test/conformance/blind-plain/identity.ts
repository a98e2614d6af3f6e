// identity.ts — who calls the API: a token (Authorization header or access_token), a Basic user (TOTP for
// two-factor users, header X-Service-OTP), or a Basic application (client_id:client_secret on /applications/…).
import type { IncomingMessage } from "node:http";
import type { App, Authorization, Store, User } from "./store.ts";
import { verifyTotp } from "./totp.ts";
import { safeEqual } from "./util.ts";

export type Identity =
  | { kind: "anon" }
  | { kind: "user"; user: User; via: "basic" }
  | { kind: "user"; user: User; via: "token"; auth: Authorization }
  | { kind: "app"; app: App };
export interface Failure { kind: "fail"; code: string; message: string; otp?: boolean }

const bad = (): Failure => ({ kind: "fail", code: "bad_credentials", message: "Bad credentials" });

function byToken(store: Store, token: string): Identity | Failure {
  const auth = token ? store.authByToken(token) : undefined;
  const user = auth ? store.user(auth.login) : undefined;
  return auth && user ? { kind: "user", user, via: "token", auth } : bad();
}

function otpHeader(req: IncomingMessage): string | undefined {
  const v = req.headers["x-service-otp"] ?? req.headers["x-github-otp"];
  return Array.isArray(v) ? v[0] : v;
}

function byBasic(store: Store, req: IncomingMessage, value: string, url: URL): Identity | Failure {
  const decoded = Buffer.from(value, "base64").toString("utf8");
  const i = decoded.indexOf(":");
  if (i < 0) return bad();
  const login = decoded.slice(0, i);
  const pw = decoded.slice(i + 1);
  const user = store.user(login);
  if (safeEqual(user?.password ?? "\u0000no-user", pw) && user) {
    if (user.totpSecret) {
      const otp = otpHeader(req);
      if (!otp) return { kind: "fail", code: "two_factor_required", message: "Must specify two-factor authentication OTP code.", otp: true };
      if (!verifyTotp(user.totpSecret, otp)) return { kind: "fail", code: "two_factor_invalid", message: "Invalid two-factor authentication OTP code.", otp: true };
    }
    return { kind: "user", user, via: "basic" };
  }
  if (url.pathname.startsWith("/applications/")) {
    const app = store.apps.get(login);
    if (app && safeEqual(app.clientSecret, pw)) return { kind: "app", app };
  }
  // A token sent through Basic: login:token, or token:x-oauth-basic.
  const asPassword = store.authByToken(pw);
  if (asPassword && user && asPassword.login === user.login) return { kind: "user", user, via: "token", auth: asPassword };
  if (pw === "x-oauth-basic" || pw === "") return byToken(store, login);
  return bad();
}

export function resolveIdentity(store: Store, req: IncomingMessage, url: URL): Identity | Failure {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const m = /^(\S+)\s+(.+)$/.exec(header.trim());
    const scheme = m?.[1]?.toLowerCase();
    const value = m?.[2]?.trim() ?? "";
    if (scheme === "token" || scheme === "bearer") return byToken(store, value);
    if (scheme === "basic") return byBasic(store, req, value, url);
    return bad();
  }
  const q = url.searchParams.get("access_token");
  if (q !== null) return byToken(store, q);
  return { kind: "anon" };
}
