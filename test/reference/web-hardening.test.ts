/**
 * The web host under hostile input. Open redirects through `return_to` (RFC 9700 §4.11): the
 * sign-out post (no session, another site's Origin: the attacker's own form) and the sign-in post
 * may send the user back only to a path of this site; what is checked is the Location actually
 * sent, resolved as a browser resolves it: the same origin, a path starting with one `/`. Parser
 * refusals (431) answer in the error shape with `Connection: close`, as the API host does. A NUL
 * in `state` gets the application's error redirect with the state echoed.
 */
import { Agent, request } from "node:http";
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

/** One GET over node:http on `agent`, so the test sees whether a kept-alive socket survives. */
function rawGet(url: string, agent: Agent, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("parser refusals on the web host", () => {
  it("headers too large: 431 in the error shape, Connection: close, and a kept-alive agent goes on working", async () => {
    const agent = new Agent({ keepAlive: true });
    try {
      const url = `${t.auth}${authorizePath({ client_id: DEMO.app.clientId })}`;
      const answer = await rawGet(url, agent, { accept: "text/html", "x-filler": "x".repeat(20_000) });
      expect(answer.status).toBe(431);
      expect(answer.headers.connection).toBe("close");
      expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(JSON.parse(answer.body)).toEqual({ message: "Request Header Fields Too Large", documentation_url: expect.any(String) });
      expect((await rawGet(url, agent)).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe("a NUL in state", () => {
  it("gets the error redirect to the registered callback, with the state echoed", async () => {
    const state = "before\0after";
    const res = await fetch(`${t.auth}${authorizePath({ client_id: DEMO.app.clientId, state })}`, { redirect: "manual" });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(DEMO.app.callback);
    expect(location.search).toContain("state=before%00after");
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ error: "invalid_request", state });
  });

  it("with a redirect_uri that does not match, gets redirect_uri_mismatch (the first check wins)", async () => {
    const state = "\0";
    const res = await fetch(`${t.auth}${authorizePath({ client_id: DEMO.app.clientId, state, redirect_uri: "http://evil.test/" })}`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(Object.fromEntries(new URL(res.headers.get("location")!).searchParams)).toMatchObject({ error: "redirect_uri_mismatch", state });
  });

  it("for an unknown client is still the 404 page", async () => {
    const res = await fetch(`${t.auth}${authorizePath({ client_id: "no-such-client", state: "\0" })}`, { redirect: "manual" });
    expect(res.status).toBe(404);
  });
});
