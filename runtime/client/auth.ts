/**
 * Putting credentials on a request (token header, `access_token` query parameter, or Basic), and
 * reading the two-factor challenge (`X-Service-OTP: required; app|sms`) off a 401.
 */
import { createHash } from "node:crypto";
import type { Auth } from "./types.ts";

export function applyAuth(auth: Auth | null | undefined, url: URL, headers: Headers): void {
  if (!auth) return;
  switch (auth.type) {
    case "token":
      headers.set("authorization", `token ${auth.token}`);
      return;
    case "query":
      url.searchParams.set("access_token", auth.token);
      return;
    case "basic":
      headers.set("authorization", `Basic ${Buffer.from(`${auth.username}:${auth.password}`, "utf8").toString("base64")}`);
      return;
  }
}

/** The OTP delivery method a 401 asks for, or undefined when the 401 is not a 2FA challenge. */
export function otpChallenge(status: number, headers: Headers): "app" | "sms" | undefined {
  if (status !== 401) return undefined;
  const match = /^\s*required\s*;\s*(app|sms)\s*$/i.exec(headers.get("x-service-otp") ?? "");
  return match ? (match[1]!.toLowerCase() as "app" | "sms") : undefined;
}

/**
 * A digest that tells credentials apart without keeping them: the ETag cache key includes it so
 * a response cached for one identity is never replayed to another.
 */
export function credentialKey(auth: Auth | null | undefined): string {
  if (!auth) return "anonymous";
  const secret = auth.type === "basic" ? `basic:${auth.username}:${auth.password}` : `token:${auth.token}`;
  return createHash("sha256").update(secret).digest("hex").slice(0, 32);
}
