/**
 * The demo profile, built in: a server started with `service-contract serve` (demo data) needs
 * only its two URLs. `--profile demo` uses it; without `--profile` the suite recognises the demo
 * data by signing in as octocat with the demo password, and says it does. The profile is the
 * `--reference` one (reference-profile.ts: users, the demo application, octo-org, the two
 * repositories, issue 1, the form driver) with tokens made through the non-web flow — personal
 * tokens (POST /authorizations), so no clean-up of an application's tokens can touch them — and
 * the simulate triggers when an admin token is given (`serve --simulate` with
 * $SERVICE_CONTRACT_ADMIN_TOKEN; `conformance --admin-token` or the same variable). Hourly limits
 * raised with `serve --rate-limit` are declared (D-RATE-RESET), read from X-RateLimit-Limit.
 */
import { randomBytes } from "node:crypto";
import type { Profile } from "../core/profile.ts";
import { REFERENCE_USERS, demoProfileShape } from "../reference-profile.ts";
import { DEFAULT_MAX_RESPONSE_BYTES, readBoundedText } from "../core/bounded-body.ts";
import { inert } from "../core/inert-text.ts";
import { withOwnedTimeout } from "../core/owned-timeout.ts";
import { DECLARABLE } from "../core/decisions.ts";

/** How long each request of the detection may take, answer and body. */
const REQUEST_MS = 10_000;

/**
 * One request with a timer of its own (held here, not by a weakly held AbortSignal.timeout) over
 * the answer and its body, the body read within the suite's byte limit.
 */
async function bounded(fetchImpl: typeof fetch, url: string, init: RequestInit): Promise<{ status: number; text: string; limit: number | undefined }> {
  return withOwnedTimeout(REQUEST_MS, async (signal) => {
    const res = await fetchImpl(url, { ...init, redirect: "manual", signal });
    return { status: res.status, text: await readBoundedText(res.body, DEFAULT_MAX_RESPONSE_BYTES), limit: hourlyLimit(res.headers.get("x-ratelimit-limit")) };
  });
}

/** X-RateLimit-Limit as a whole positive number; anything else is no limit said. */
function hourlyLimit(value: string | null): number | undefined {
  if (value === null || !/^\d{1,9}$/.test(value.trim())) return undefined;
  const n = Number(value.trim());
  return n > 0 ? n : undefined;
}

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
    const res = await bounded(fetchImpl, `${baseUrl}/authorizations`, { headers: { accept: "application/json", authorization: basic(login, password) } });
    return res.status === 200;
  } catch {
    return false;
  }
}

async function personalToken(baseUrl: string, user: { login: string; password: string; scopes: readonly string[] }, fetchImpl: typeof fetch): Promise<{ token: string; limit: number | undefined }> {
  const url = `${baseUrl}/authorizations`;
  let res: { status: number; text: string; limit: number | undefined };
  try {
    res = await bounded(fetchImpl, url, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json", authorization: basic(user.login, user.password) },
      body: JSON.stringify({ scopes: user.scopes, note: `conformance demo profile ${randomBytes(4).toString("hex")}` }),
    });
  } catch (error) {
    throw new DemoProfileError(`the demo profile needs a token for ${user.login}: POST ${url} got no answer (${inert((error as Error).message, { oneLine: true }).slice(0, 200)})`);
  }
  let body: { token?: unknown; message?: unknown } = {};
  try {
    body = (JSON.parse(res.text) ?? {}) as typeof body;
  } catch {
    // not JSON: said below by the status
  }
  if (res.status !== 201 || typeof body.token !== "string" || body.token === "") {
    // The target's message goes to the terminal: made inert, on one line, and short.
    const message = typeof body.message === "string" && body.message !== "" ? ` (${inert(body.message, { oneLine: true }).slice(0, 200)})` : "";
    throw new DemoProfileError(`the demo profile needs a token for ${user.login}: POST ${url} answered ${res.status}${message}; is this a server with the demo data (serve --seed demo)?`);
  }
  return { token: body.token, limit: res.limit };
}

/** The anonymous hourly limit the server says on a feed read (one anonymous request); undefined when it says none. */
async function anonymousLimit(baseUrl: string, fetchImpl: typeof fetch): Promise<number | undefined> {
  try {
    return (await bounded(fetchImpl, `${baseUrl}/events`, { headers: { accept: "application/json" } })).limit;
  } catch {
    return undefined;
  }
}

/**
 * The hourly limits of a `serve --rate-limit` (its help: raise them to run the suite again within
 * the hour) are the operator's choice, not a fault of the server: when both limits the server
 * says differ from the contract's, the demo profile declares them (D-RATE-RESET), so the suite
 * still holds the server to them — X-RateLimit-Limit, Remaining and Reset — rather than to 5000/60.
 */
export function declaredLimits(authenticated: number | undefined, anonymous: number | undefined): { authenticated: number; anonymous: number } | undefined {
  if (authenticated === undefined || anonymous === undefined) return undefined;
  const contract = DECLARABLE["D-RATE-RESET"].contract;
  return authenticated === contract.authenticated && anonymous === contract.anonymous ? undefined : { authenticated, anonymous };
}

/** The line the CLI prints when the demo profile declared the server's limits. */
export function declaredLimitsNote(profile: Profile): string | undefined {
  const limits = profile.decisions?.["D-RATE-RESET"] as { authenticated: number; anonymous: number } | undefined;
  if (!limits) return undefined;
  const contract = DECLARABLE["D-RATE-RESET"].contract;
  return `The server's hourly limits are ${limits.authenticated} with a token and ${limits.anonymous} without (serve --rate-limit), not the contract's ${contract.authenticated} and ${contract.anonymous}: the demo profile declares them (D-RATE-RESET)`;
}

/** The demo profile for a target at `baseUrl`; triggers only with the admin token of `serve --simulate`. */
export async function demoProfile(baseUrl: string, options: { adminToken?: string; fetch?: typeof fetch } = {}): Promise<Profile> {
  const fetchImpl = options.fetch ?? fetch;
  const { main, second } = REFERENCE_USERS;
  const [mainToken, secondToken, anonymous] = await Promise.all([personalToken(baseUrl, main, fetchImpl), personalToken(baseUrl, second, fetchImpl), anonymousLimit(baseUrl, fetchImpl)]);
  const profile = await demoProfileShape(mainToken.token, secondToken.token, options.adminToken);
  const limits = declaredLimits(mainToken.limit, anonymous);
  return limits ? { ...profile, decisions: { ...profile.decisions, "D-RATE-RESET": limits } } : profile;
}
