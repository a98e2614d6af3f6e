/**
 * What the OAuth-client cases judge a client by, table-driven over recorded sign-ins (no browser;
 * the same judgement over real HTTP is oauth-client-libraries.test.ts's): a success page counts
 * only after the client's token request was answered with a token — FLOW-001, TOKEN-001 and
 * REDIRECT-001 fail a client that shows "signed in" after an error body, and say what it was
 * answered — and CODE-001 judges the client only when the suite's copy of its request did spend
 * the code and the client's own was refused with bad_verification_code (else a set-up failure,
 * never "a reused code" pinned on a client whose exchange was its first).
 */
import { describe, expect, it } from "vitest";
import { CLIENT_CASES } from "../../../conformance/consumers/oauth-client/cases.ts";
import type { ClientContext, SignIn } from "../../../conformance/consumers/oauth-client/context.ts";
import type { ClientProfile } from "../../../conformance/consumers/oauth-client/profile.ts";
import type { TokenAnswer, TokenRequest } from "../../../conformance/consumers/oauth-client/token-relay.ts";
import { runCase } from "../../../conformance/run/runner.ts";
import { HttpClient } from "../../../conformance/core/http.ts";
import { SkipCase } from "../../../conformance/core/failure.ts";

const base = "http://127.0.0.1:9";
const profile: ClientProfile = { startUrl: `${base}/login`, callbackUrl: `${base}/cb`, clientId: "c", clientSecret: "s", authUrl: base, success: { url: "/welcome" }, failure: { text: "Sign-in failed" } };
const token: TokenAnswer = { status: 200, mediaType: "application/json", fields: { access_token: "gho_token", token_type: "bearer", scope: "user" } };
const refused = (error: string, status = 200): TokenAnswer => ({ status, mediaType: "application/json", fields: { error, error_description: "no" } });
const WELCOME = { url: `${base}/welcome`, text: "Signed in", status: 200 };
const FAILED = { url: `${base}/cb?code=x`, text: "Sign-in failed", status: 401 };

function signIn(final: SignIn["final"], requests: Partial<TokenRequest>[]): SignIn {
  const authorize = new URL(`${base}/login/oauth/authorize?client_id=c&state=${"x".repeat(20)}&redirect_uri=${encodeURIComponent(profile.callbackUrl)}`);
  return {
    authorizeRequests: [authorize],
    callback: new URL(`${profile.callbackUrl}?code=x&state=${"x".repeat(20)}`),
    final,
    tokenRequests: requests.map((r) => ({ at: 0, accept: "application/json", contentType: "application/x-www-form-urlencoded", fields: { code: "x", redirect_uri: profile.callbackUrl }, ...r })),
    outcome: final === WELCOME ? "success" : "failure",
  };
}

async function judge(id: string, s: SignIn) {
  const c = CLIENT_CASES.find((x) => x.id === id)!;
  const ctx = {
    profile,
    server: { supportsPkce: true, spendBeforeClient: () => undefined, advanceClock: () => undefined },
    signIn: async (options?: { onCallback?: (url: URL) => unknown }) => {
      await options?.onCallback?.(s.callback!);
      return s;
    },
    note: () => undefined,
    skip: (reason: string): never => {
      throw new SkipCase(reason);
    },
  } as unknown as ClientContext;
  return runCase(c, 5000, () => ({ http: new HttpClient(base, base), run: () => c.run(ctx) }));
}

describe("a success page counts only after a token answer", () => {
  it.each(["OAUTH-CLIENT-FLOW-001", "OAUTH-CLIENT-TOKEN-001", "OAUTH-CLIENT-REDIRECT-001"])("%s passes a sign-in whose exchange got a token", async (id) => {
    expect((await judge(id, signIn(WELCOME, [{ answer: token }]))).status).toBe("passed");
  });

  it.each([
    ["OAUTH-CLIENT-FLOW-001", refused("incorrect_client_credentials"), /successful sign-in after its token request was answered 200 \{error: incorrect_client_credentials\}/],
    ["OAUTH-CLIENT-TOKEN-001", refused("bad_verification_code"), /successful sign-in after its token request was answered 200 \{error: bad_verification_code\}/],
    ["OAUTH-CLIENT-REDIRECT-001", refused("redirect_uri_mismatch", 400), /answered 400 \{error: redirect_uri_mismatch\}/],
  ])("%s fails a success page after a refused exchange, naming the answer", async (id, answer, message) => {
    const result = await judge(id, signIn(WELCOME, [{ answer }]));
    expect(result.status).toBe("failed");
    expect(result.failure?.message).toMatch(message);
  });

  it("says what the client was answered when it did not sign in", async () => {
    const result = await judge("OAUTH-CLIENT-FLOW-001", signIn(FAILED, [{ answer: refused("incorrect_client_credentials") }]));
    expect(result.failure?.message).toMatch(/did not report a successful sign-in \(its token request was answered 200 \{error: incorrect_client_credentials\}\)/);
  });
});

describe("OAUTH-CLIENT-CODE-001: a reused code is one the suite did spend", () => {
  it("passes a failure page after the copy got a token and the client bad_verification_code", async () => {
    expect((await judge("OAUTH-CLIENT-CODE-001", signIn(FAILED, [{ spentFirst: token, answer: refused("bad_verification_code") }]))).status).toBe("passed");
  });

  it("fails a client that signs in after bad_verification_code, naming the answer", async () => {
    const result = await judge("OAUTH-CLIENT-CODE-001", signIn(WELCOME, [{ spentFirst: token, answer: refused("bad_verification_code") }]));
    expect(result.failure?.message).toMatch(/a reused code: the client reported a successful sign-in after its token request was answered 200 \{error: bad_verification_code\}/);
  });

  it("is a set-up failure when the copy did not spend the code (a PKCE client's verifier missing, say)", async () => {
    const result = await judge("OAUTH-CLIENT-CODE-001", signIn(FAILED, [{ spentFirst: refused("bad_verification_code"), answer: token }]));
    expect(result.failure?.message).toMatch(/^set-up: the suite could not spend the code/);
  });

  it("is a set-up failure when the client's exchange was not refused as a used code", async () => {
    const result = await judge("OAUTH-CLIENT-CODE-001", signIn(FAILED, [{ spentFirst: token, answer: refused("incorrect_client_credentials") }]));
    expect(result.failure?.message).toMatch(/^set-up: a reused code should have been refused with bad_verification_code/);
  });
});
