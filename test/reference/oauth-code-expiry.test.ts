/**
 * Time in the web flow, with the server's clock injected (`startServer({ now })`): a code is good
 * for 10 minutes and not a moment longer, and a sign-in session ends after 14 days.
 */
import { describe, expect, it } from "vitest";
import { DEMO, useServer } from "./harness.ts";
import { APP_CREDENTIALS, authorizePath, codeFor, exchange, signedInBrowser } from "./oauth-web.ts";

let clock = Date.parse("2030-01-01T00:00:00Z");
const t = useServer({ now: () => new Date(clock) });
const MINUTE = 60_000;

async function exchangeAfter(ms: number): Promise<Record<string, string>> {
  const browser = await signedInBrowser(t, "octocat");
  const { code } = await codeFor(browser, { client_id: DEMO.app.clientId, scope: "gist" });
  clock += ms;
  return (await exchange(t, { ...APP_CREDENTIALS, code }, "application/json")).json();
}

describe("code lifetime", () => {
  it("accepts a code 9 minutes 59 seconds old", async () => {
    expect((await exchangeAfter(10 * MINUTE - 1000)).token_type).toBe("bearer");
  });

  it("refuses a code 10 minutes old with bad_verification_code", async () => {
    expect(await exchangeAfter(10 * MINUTE)).toEqual({
      error: "bad_verification_code",
      error_description: "The code passed is incorrect or expired.",
      error_uri: "https://developer.service.example/v3/oauth/#bad-verification-code",
    });
  });
});

describe("session lifetime", () => {
  it("signs the user out after 14 days", async () => {
    const browser = await signedInBrowser(t, "hubot");
    const path = authorizePath({ client_id: DEMO.app.clientId, scope: "repo" });
    clock += 14 * 24 * 60 * MINUTE - 1000;
    expect(await (await browser.get(path)).text()).toContain('action="/login/oauth/authorize/decision"');
    clock += 1000;
    expect(await (await browser.get(path)).text()).toContain('action="/session"');
  });
});
