/**
 * OAUTH-CLIENT-PKCE-001's judgement, table-driven over recorded sign-ins (no browser; over real
 * HTTP a real PKCE client, openid-client, passes it in oauth-client-libraries.test.ts): it skips
 * when the profile or the authorization server lacks PKCE, passes for an S256 challenge with its
 * verifier, and fails a missing challenge, a plain method, a short verifier or a verifier that
 * does not match.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CLIENT_CASES } from "../../../conformance/consumers/oauth-client/cases.ts";
import type { ClientContext, SignIn } from "../../../conformance/consumers/oauth-client/context.ts";
import type { ClientProfile } from "../../../conformance/consumers/oauth-client/profile.ts";
import { runCase } from "../../../conformance/run/runner.ts";
import { HttpClient } from "../../../conformance/core/http.ts";
import { SkipCase } from "../../../conformance/core/failure.ts";

const pkceCase = CLIENT_CASES.find((c) => c.id === "OAUTH-CLIENT-PKCE-001")!;
const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const challenge = createHash("sha256").update(verifier).digest("base64url");
const profile: ClientProfile = { startUrl: "http://127.0.0.1:9/login", callbackUrl: "http://127.0.0.1:9/cb", clientId: "c", clientSecret: "s", authUrl: "http://127.0.0.1:9", success: { url: "/welcome" }, pkce: true };

function signIn(query: Record<string, string>, fields: Record<string, string>): SignIn {
  const authorize = new URL("http://127.0.0.1:9/login/oauth/authorize");
  for (const [k, v] of Object.entries({ client_id: "c", state: "x".repeat(20), ...query })) authorize.searchParams.set(k, v);
  return { authorizeRequests: [authorize], final: { url: "http://127.0.0.1:9/welcome", text: "ok", status: 200 }, tokenRequests: [{ at: 0, accept: "application/json", contentType: "application/x-www-form-urlencoded", fields, answer: { status: 200, mediaType: "application/json", fields: { access_token: "gho_token", token_type: "bearer", scope: "user" } } }], outcome: "success" };
}

async function judge(s: SignIn, options: { pkce?: boolean; server?: boolean } = {}) {
  const ctx = {
    profile: { ...profile, pkce: options.pkce ?? true },
    server: { supportsPkce: options.server ?? true },
    signIn: async () => s,
    note: () => undefined,
    skip: (reason: string): never => {
      throw new SkipCase(reason);
    },
  } as unknown as ClientContext;
  return runCase(pkceCase, 5000, () => ({ http: new HttpClient("http://127.0.0.1:9", "http://127.0.0.1:9"), run: () => pkceCase.run(ctx) }));
}

const good = signIn({ code_challenge: challenge, code_challenge_method: "S256" }, { code: "a", code_verifier: verifier });

describe("OAUTH-CLIENT-PKCE-001", () => {
  it("skips when the profile says the client does not use PKCE, or the authorization server lacks it", async () => {
    expect(await judge(good, { pkce: false })).toMatchObject({ status: "skipped", reason: expect.stringMatching(/does not use PKCE/) });
    expect(await judge(good, { server: false })).toMatchObject({ status: "skipped", reason: expect.stringMatching(/does not support PKCE/) });
  });

  it("passes an S256 challenge with its verifier", async () => {
    expect((await judge(good)).status).toBe("passed");
  });

  it.each([
    ["no challenge", signIn({}, { code: "a", code_verifier: verifier }), /no S256 code_challenge/],
    ["the plain method", signIn({ code_challenge: verifier, code_challenge_method: "plain" }, { code: "a", code_verifier: verifier }), /no S256 code_challenge/],
    ["no verifier", signIn({ code_challenge: challenge, code_challenge_method: "S256" }, { code: "a" }), /no valid code_verifier/],
    ["a short verifier", signIn({ code_challenge: challenge, code_challenge_method: "S256" }, { code: "a", code_verifier: "short" }), /no valid code_verifier/],
    ["another verifier", signIn({ code_challenge: challenge, code_challenge_method: "S256" }, { code: "a", code_verifier: `${verifier.slice(0, -1)}A` }), /does not match/],
  ])("fails %s", async (_, s, message) => {
    const result = await judge(s);
    expect(result.status).toBe("failed");
    expect(result.failure?.message).toMatch(message);
  });
});
