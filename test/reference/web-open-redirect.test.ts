/**
 * Open redirects through `return_to` on the web host (RFC 9700 §4.11): the sign-out post (no
 * session, another site's Origin: the attacker's own form) and the sign-in post may send the
 * user back only to a path of this site. What is checked is the Location actually sent, resolved
 * as a browser resolves it against the web host: the same origin, a path starting with one `/`.
 */
import { describe, expect, it } from "vitest";
import { DEMO, useServer } from "./harness.ts";
import { authorizePath, Browser, formFields, PATHS } from "./oauth-web.ts";

const t = useServer();

/** Spellings that resolve (dot segments, `%2e`, backslashes, controls a browser strips) to another host. */
const OFF_SITE = [
  "/.//evil.test/phish",
  "/..//evil.test/phish",
  "/%2e//evil.test/phish",
  "/%2E//evil.test/phish",
  "/.%2e//evil.test/phish",
  "/%2e%2e//evil.test/phish",
  "/x/..//evil.test/phish",
  "/x/%2e%2e//evil.test/phish",
  "/x/y/../..//evil.test/phish",
  "/./\\evil.test/phish",
  "/.\\/evil.test/phish",
  "/\\evil.test/phish",
  "/\t/evil.test/phish",
  "/\n/evil.test/phish",
  "/\r\n/evil.test/phish",
  "/./\t/evil.test/phish",
  "//evil.test/phish",
  "///evil.test/phish",
  "https://evil.test/phish",
  "http:/evil.test/phish",
  "\t//evil.test/phish",
  " //evil.test/phish",
  "javascript:alert(1)",
];

/** The page a browser would open for a Location sent by the web host. */
function landing(origin: string, location: string): URL {
  return new URL(location, origin);
}

function expectOnSite(origin: string, res: Response): void {
  const location = res.headers.get("location");
  if (location === null) return;
  const url = landing(origin, location);
  expect(url.origin, `Location ${JSON.stringify(location)}`).toBe(new URL(origin).origin);
  expect(location).toMatch(/^\/(?![/\\])/);
}

describe("return_to never leaves the site", () => {
  it.each(OFF_SITE)("sign-out post from another site, return_to %j", async (returnTo) => {
    const res = await fetch(`${t.auth}${PATHS.signOut}`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: "https://evil.test", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ return_to: returnTo }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("location"), `return_to ${JSON.stringify(returnTo)}`).toBeNull();
  });

  it.each(OFF_SITE.slice(0, 10))("sign-in post, return_to %j", async (returnTo) => {
    const browser = new Browser(t.auth);
    const fields = formFields(await (await browser.get(authorizePath({ client_id: DEMO.app.clientId }))).text(), PATHS.signIn);
    const res = await browser.post(PATHS.signIn, { ...fields, return_to: returnTo, login: DEMO.defunkt.login, password: DEMO.defunkt.password });
    expect(res.status).toBe(200);
    expect(res.headers.get("location")).toBeNull();
  });

  it.each([
    ["/login/oauth/authorize?client_id=x", "/login/oauth/authorize?client_id=x"],
    ["/a/b/../c", "/a/c"],
    ["/a/%2e%2e/c", "/c"],
    ["/ok?next=//evil.test", "/ok?next=//evil.test"],
    ["/%2F%2Fevil.test", "/%2F%2Fevil.test"],
  ])("a same-site path %j is kept, resolved (%j)", async (returnTo, expected) => {
    const res = await fetch(`${t.auth}${PATHS.signOut}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ return_to: returnTo }),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(expected);
    expectOnSite(t.auth, res);
  });
});
