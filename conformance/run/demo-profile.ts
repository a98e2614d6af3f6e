/**
 * The demo profile, built in: a server started with `service-contract serve` (demo data) needs
 * only its two URLs. `--profile demo` uses it; without `--profile` the suite recognises the demo
 * data by signing in as octocat with the demo password, and says it does. The profile is the
 * `--reference` one (reference-profile.ts: users, the demo application, octo-org, the two
 * repositories, issue 1, the form driver) with tokens made through the non-web flow — personal
 * tokens (POST /authorizations), so no clean-up of an application's tokens can touch them — and
 * the simulate triggers when an admin token is given (`serve --simulate` with
 * $SERVICE_CONTRACT_ADMIN_TOKEN; `conformance --admin-token` or the same variable).
 */
import { randomBytes } from "node:crypto";
import type { Profile } from "../core/profile.ts";
import { REFERENCE_USERS, demoProfileShape } from "../reference-profile.ts";

export class DemoProfileError extends Error {
  override name = "DemoProfileError";
}

function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`;
}

/** Whether the target signs octocat in with the demo password (the demo data is there). */
export async function hasDemoData(baseUrl: string, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  const { login, password } = REFERENCE_USERS.main;
  try {
    const res = await fetchImpl(`${baseUrl}/authorizations`, { headers: { accept: "application/json", authorization: basic(login, password) }, signal: AbortSignal.timeout(10_000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

async function personalToken(baseUrl: string, user: { login: string; password: string; scopes: readonly string[] }, fetchImpl: typeof fetch): Promise<string> {
  const res = await fetchImpl(`${baseUrl}/authorizations`, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/json", authorization: basic(user.login, user.password) },
    body: JSON.stringify({ scopes: user.scopes, note: `conformance demo profile ${randomBytes(4).toString("hex")}` }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json().catch(() => ({}))) as { token?: string; message?: string };
  if (res.status !== 201 || !body.token) throw new DemoProfileError(`the demo profile needs a token for ${user.login}: POST ${baseUrl}/authorizations answered ${res.status}${body.message ? ` (${body.message})` : ""}; is this a server with the demo data (serve --seed demo)?`);
  return body.token;
}

/** The demo profile for a target at `baseUrl`; triggers only with the admin token of `serve --simulate`. */
export async function demoProfile(baseUrl: string, options: { adminToken?: string; fetch?: typeof fetch } = {}): Promise<Profile> {
  const fetchImpl = options.fetch ?? fetch;
  const { main, second } = REFERENCE_USERS;
  const [mainToken, secondToken] = await Promise.all([personalToken(baseUrl, main, fetchImpl), personalToken(baseUrl, second, fetchImpl)]);
  return demoProfileShape(mainToken, secondToken, options.adminToken);
}
