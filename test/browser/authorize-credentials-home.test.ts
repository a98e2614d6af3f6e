/**
 * Credentials stay home in the browser driver too (issue 34): Chromium fills a login form whose
 * `action` is another origin (another port of 127.0.0.1). DevTools' Fetch pause stops the post
 * before it leaves the browser — the other origin receives nothing carrying the password — and the
 * case fails against D-URL-ORIGINS. An identity provider named in `authorize.allowOrigins` gets it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { runSuite } from "../../conformance/run/runner.ts";
import { AUTHORIZE_CASES } from "../conformance/reference-cases.ts";
import { foreignLoginProfile, leaks, SECRETS, startForeignLogin } from "../conformance/foreign-login.ts";
import { CHROMIUM_PATH, chromiumSkip } from "./chromium.ts";
import { ceiling } from "../ceilings.ts";

let sites: Awaited<ReturnType<typeof startForeignLogin>> | undefined;
afterEach(async () => {
  await sites?.close();
  sites = undefined;
});

describe("credentials stay home: the browser driver", () => {
  it("does not let the page post the password to another origin: the case fails against D-URL-ORIGINS", async (ctx) => {
    const skip = await chromiumSkip();
    if (skip) return ctx.skip(skip);
    sites = await startForeignLogin();
    const { target, elsewhere } = sites;
    const profile = foreignLoginProfile({ driver: "browser", executablePath: CHROMIUM_PATH });
    const summary = await runSuite({ baseUrl: target.url, authUrl: target.url, profile, cases: AUTHORIZE_CASES.slice(0, 1), receiverHost: false });
    const [r] = summary.results;
    expect([r!.status, r!.failure?.rule]).toEqual(["failed", "D-URL-ORIGINS"]);
    expect(r!.failure!.message).toContain(`to ${elsewhere.url}, which is neither of the target's origins`);
    expect(target.requests.some((x) => x.url.startsWith("/login/oauth/authorize"))).toBe(true); // Chromium was on the page
    expect(leaks(elsewhere)).toEqual([]);
    expect(JSON.stringify(summary)).not.toContain(SECRETS.password);
  }, ceiling(60_000));

  for (const how of ["image", "popup"] as const) it(`does not let the page's script send the typed password to another origin by ${how}`, async (ctx) => {
    const skip = await chromiumSkip();
    if (skip) return ctx.skip(skip);
    sites = await startForeignLogin(how);
    const { target, elsewhere } = sites;
    const profile = foreignLoginProfile({ driver: "browser", executablePath: CHROMIUM_PATH });
    const summary = await runSuite({ baseUrl: target.url, authUrl: target.url, profile, cases: AUTHORIZE_CASES.slice(0, 1), receiverHost: false });
    const [r] = summary.results;
    expect(leaks(elsewhere)).toEqual([]);
    expect([r!.status, r!.failure?.rule]).toEqual(["failed", "D-URL-ORIGINS"]);
  }, ceiling(60_000));

  it("lets the post through to an identity provider named in authorize.allowOrigins", async (ctx) => {
    const skip = await chromiumSkip();
    if (skip) return ctx.skip(skip);
    sites = await startForeignLogin();
    const { target, elsewhere } = sites;
    const profile = foreignLoginProfile({ driver: "browser", executablePath: CHROMIUM_PATH, allowOrigins: [elsewhere.url] });
    const summary = await runSuite({ baseUrl: target.url, authUrl: target.url, profile, cases: AUTHORIZE_CASES.slice(0, 1), receiverHost: false });
    expect(leaks(elsewhere).map((x) => `${x.method} ${x.url}`)).toEqual(["POST /session"]);
    expect(summary.results[0]!.failure?.rule).not.toBe("D-URL-ORIGINS");
  }, ceiling(60_000));
});
