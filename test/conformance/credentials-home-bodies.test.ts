/**
 * Credentials stay home in bodies too (issue 34): the form driver meets a login form whose
 * `action` is another origin. The case fails against D-URL-ORIGINS and the other origin gets no
 * request at all; an identity provider named in `authorize.allowOrigins` does get the post. The
 * check itself (conformance/core/credentials-home.ts) is tried on the spellings a secret takes in
 * a URL, a form and a JSON body.
 */
import { afterEach, describe, expect, it } from "vitest";
import { runSuite } from "../../conformance/run/runner.ts";
import { carriesSecret, homeOrigins, keepSecretsHome, profileSecrets } from "../../conformance/core/credentials-home.ts";
import { CaseFailure } from "../../conformance/core/failure.ts";
import type { Case } from "../../conformance/core/types.ts";
import { AUTHORIZE_CASES } from "./reference-cases.ts";
import { foreignLoginProfile, leaks, SECRETS, startForeignLogin } from "./foreign-login.ts";

let sites: Awaited<ReturnType<typeof startForeignLogin>> | undefined;
afterEach(async () => {
  await sites?.close();
  sites = undefined;
});

describe("credentials stay home: form bodies", () => {
  it("the form driver does not post the password to a login form on another origin: the case fails against D-URL-ORIGINS", async () => {
    sites = await startForeignLogin();
    const { target, elsewhere } = sites;
    const summary = await runSuite({ baseUrl: target.url, authUrl: target.url, profile: foreignLoginProfile({ driver: "form" }), cases: AUTHORIZE_CASES.slice(0, 1), receiverHost: false });
    const [r] = summary.results;
    expect(r!.status).toBe("failed");
    expect(r!.failure!.rule).toBe("D-URL-ORIGINS");
    expect(r!.failure!.message).toContain(`to ${elsewhere.url}, which is neither of the target's origins`);
    expect(target.requests.some((x) => x.url.startsWith("/login/oauth/authorize"))).toBe(true); // the page was read
    expect(elsewhere.requests).toEqual([]);
    expect(JSON.stringify(summary)).not.toContain(SECRETS.password);
  });

  it("an identity provider the profile names in authorize.allowOrigins gets the login form's post", async () => {
    sites = await startForeignLogin();
    const { target, elsewhere } = sites;
    await runSuite({ baseUrl: target.url, authUrl: target.url, profile: foreignLoginProfile({ driver: "form", allowOrigins: [elsewhere.url] }), cases: AUTHORIZE_CASES.slice(0, 1), receiverHost: false });
    expect(leaks(elsewhere).map((x) => `${x.method} ${x.url}`)).toEqual(["POST /session"]);
  });

  it("the suite's own HTTP client refuses a body carrying a profile secret to another origin: nothing is sent, the case fails against D-URL-ORIGINS", async () => {
    sites = await startForeignLogin();
    const { target, elsewhere } = sites;
    // A URL the target handed out (a Link, a Location) that a case follows with a body of the profile's.
    const follows = (what: string, body: { form?: Record<string, string>; json?: unknown }): Case => ({
      id: `FAKE-BODY-${what.toUpperCase()}-001`,
      title: `posts the ${what} where the target points`,
      area: "oauth",
      seed: "s",
      rules: ["S-OAUTH-FLOW"],
      async run(ctx) {
        await ctx.http.request({ method: "POST", path: `${elsewhere.url}/collect`, ...body });
      },
    });
    const cases = [follows("password", { form: { login: "octocat", password: SECRETS.password } }), follows("secret", { json: { client_id: "Iv1.conformance", client_secret: [SECRETS.clientSecret] } })];
    const summary = await runSuite({ baseUrl: target.url, authUrl: target.url, profile: foreignLoginProfile({ driver: "form" }), cases, receiverHost: false });
    for (const r of summary.results) {
      expect(r.status, r.id).toBe("failed");
      expect(r.failure!.rule, r.id).toBe("D-URL-ORIGINS");
    }
    expect(elsewhere.requests).toEqual([]);
    // The same request to the target's own origin goes out.
    const home = await runSuite({ baseUrl: target.url, authUrl: target.url, profile: foreignLoginProfile({ driver: "form" }), cases: [{ ...cases[0]!, run: (ctx) => ctx.http.request({ method: "POST", path: "/collect", form: { password: SECRETS.password } }).then(() => undefined) }], receiverHost: false });
    expect(home.results[0]!.status).toBe("passed");
    expect(target.requests.some((x) => x.method === "POST" && x.url === "/collect")).toBe(true);
  });

  it("keepSecretsHome finds a secret in a URL, a form body and a JSON body, only on other origins", () => {
    const profile = foreignLoginProfile({ driver: "form" });
    const secrets = profileSecrets(profile);
    expect(secrets).toEqual(expect.arrayContaining(Object.values(SECRETS)));
    const home = homeOrigins(["http://127.0.0.1:3000", "http://127.0.0.1:3001/"]);
    const tricky = "p&ss wörd\"+/=";
    expect(carriesSecret(new URLSearchParams({ password: tricky }).toString(), [tricky])).toBe(true);
    expect(carriesSecret(JSON.stringify({ password: tricky }), [tricky])).toBe(true);
    expect(carriesSecret(`https://x.test/?p=${encodeURIComponent(tricky)}`, [tricky])).toBe(true);
    const leaving = [
      { url: "http://127.0.0.1:4000/session", body: new URLSearchParams({ login: "octocat", password: SECRETS.password }).toString() },
      { url: "http://127.0.0.1:4000/token", body: JSON.stringify({ client_secret: SECRETS.clientSecret }) },
      { url: `http://evil.test/?access_token=${SECRETS.token}` },
    ];
    for (const request of leaving) {
      expect(() => keepSecretsHome(request, home, secrets)).toThrow(CaseFailure);
      expect(() => keepSecretsHome({ ...request, url: request.url.replace(/^http:\/\/[^/]+/, "http://127.0.0.1:3001") }, home, secrets)).not.toThrow();
    }
    expect(() => keepSecretsHome({ url: "http://127.0.0.1:4000/session", body: "login=octocat" }, home, secrets)).not.toThrow();
    expect(() => keepSecretsHome(leaving[0]!, homeOrigins(["http://127.0.0.1:3000"], ["http://127.0.0.1:4000"]), secrets)).not.toThrow();
  });
});
