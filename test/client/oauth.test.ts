/** Unit tests of the OAuth web-flow helpers: authorize URL and state, state check, token-response interpretation. */
import { describe, expect, it } from "vitest";
import { authorizeUrl, checkState, codeChallenge, interpretTokenResponse, OAuthStateError, TokenExchangeError } from "../../runtime/client/index.ts";

describe("authorizeUrl", () => {
  it("builds the authorize URL on the web host with every given parameter", () => {
    const { url, state } = authorizeUrl("http://web.example:3001/", { clientId: "abc", redirectUri: "http://app/cb", scopes: ["repo", "user:email"], state: "s1" });
    const u = new URL(url);
    expect(u.origin + u.pathname).toBe("http://web.example:3001/login/oauth/authorize");
    expect(Object.fromEntries(u.searchParams)).toEqual({ client_id: "abc", redirect_uri: "http://app/cb", scope: "repo,user:email", state: "s1" });
    expect(state).toBe("s1");
  });

  it("generates an unguessable state when none is given, and returns it", () => {
    const states = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const { url, state } = authorizeUrl("http://web", { clientId: "abc" });
      expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
      expect(new URL(url).searchParams.get("state")).toBe(state);
      expect(new URL(url).searchParams.has("scope")).toBe(false);
      states.add(state);
    }
    expect(states.size).toBe(50);
  });
});

describe("authorizeUrl with pkce", () => {
  it("adds the S256 challenge of a fresh 43-character verifier and returns the verifier", () => {
    const a = authorizeUrl("http://web", { clientId: "abc", pkce: true });
    const b = authorizeUrl("http://web", { clientId: "abc", pkce: true });
    expect(a.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.codeVerifier).not.toBe(b.codeVerifier);
    const params = new URL(a.url).searchParams;
    expect(params.get("code_challenge")).toBe(codeChallenge(a.codeVerifier!));
    expect(params.get("code_challenge_method")).toBe("S256");
  });

  it("sends nothing of PKCE without the option", () => {
    const { url, codeVerifier } = authorizeUrl("http://web", { clientId: "abc" });
    expect(codeVerifier).toBeUndefined();
    expect(new URL(url).searchParams.has("code_challenge")).toBe(false);
  });
});

describe("checkState", () => {
  it.each([
    ["abc", "abc", true],
    ["abc", "abd", false],
    ["abc", "abcd", false],
    ["abc", "", false],
    ["abc", null, false],
    ["", "", false],
    [undefined, "abc", false],
  ])("expected %j received %j → ok %s", (expected, received, ok) => {
    if (ok) expect(() => checkState(expected, received)).not.toThrow();
    else expect(() => checkState(expected, received)).toThrow(OAuthStateError);
  });
});

describe("interpretTokenResponse", () => {
  it.each([
    [{ access_token: "e72", scope: "repo,gist", token_type: "bearer" }, { access_token: "e72", scope: "repo,gist", token_type: "bearer", scopes: ["repo", "gist"] }],
    [{ access_token: "e72", scope: "", token_type: "bearer" }, { access_token: "e72", scope: "", token_type: "bearer", scopes: [] }],
  ])("token %j", (body, token) => expect(interpretTokenResponse(200, body)).toEqual(token));

  it.each([
    [{ error: "bad_verification_code", error_description: "The code passed is incorrect or expired.", error_uri: "https://d/x" }, "bad_verification_code"],
    [{ error: "incorrect_client_credentials", error_description: "bad", error_uri: "https://d/y" }, "incorrect_client_credentials"],
    [{ error: "redirect_uri_mismatch", error_description: "bad", error_uri: "https://d/z" }, "redirect_uri_mismatch"],
    [{ error: "something_new", error_description: "?" }, "invalid_response"],
    [{}, "invalid_response"],
    ["<html>", "invalid_response"],
  ])("error %j → %s", (body, code) => {
    try {
      interpretTokenResponse(200, body);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(TokenExchangeError);
      expect((e as TokenExchangeError).error).toBe(code);
    }
  });
});
