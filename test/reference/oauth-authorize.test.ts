/**
 * `GET /login/oauth/authorize` on a real server: unknown clients, the login page, the error
 * redirects (suspended application, redirect_uri mismatch), the seed's redirect_uri rules, scope
 * parsing and normalisation, the consent page, approve and deny, and the automatic completion
 * for a user who already authorized the application.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createApplication } from "../../reference/store/applications.ts";
import { DEMO, useServer } from "./harness.ts";
import { APP_CREDENTIALS, authorizePath, Browser, codeFor, decide, exchange, formFields, PATHS, signedInBrowser } from "./oauth-web.ts";

const t = useServer();
const EXAMPLE = { clientId: "example-path-app", callback: "http://example.com/path" };

beforeAll(async () => {
  await createApplication(t.server.db, { clientId: EXAMPLE.clientId, clientSecret: "example-secret-0123456789", name: "Example", url: "http://example.com", callbackUrl: EXAMPLE.callback });
});

function expectPageHeaders(res: Response): void {
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'; /);
  expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("cache-control")).toBe("no-store");
}

function query(res: Response): Record<string, string> {
  return Object.fromEntries(new URL(res.headers.get("location")!).searchParams);
}

function target(res: Response): string {
  const url = new URL(res.headers.get("location")!);
  return `${url.origin}${url.pathname}`;
}

describe("an unknown, missing or malformed client_id", () => {
  it.each([
    ["unknown", "?client_id=no-such-client"],
    ["missing", ""],
    ["empty", "?client_id="],
    ["missing, with a redirect_uri", "?redirect_uri=http%3A%2F%2F127.0.0.1%3A8080%2Fcallback&state=s"],
    ["duplicated", "?client_id=demo-client-id-0001&client_id=demo-client-id-0001"],
    ["fine, with a duplicated state", "?client_id=demo-client-id-0001&state=a&state=b"],
    ["fine, with a duplicated redirect_uri", "?client_id=demo-client-id-0001&redirect_uri=x&redirect_uri=y"],
  ])("%s → the 404 HTML page, never a redirect", async (_name, search) => {
    const res = await fetch(`${t.auth}${PATHS.authorize}${search}`, { redirect: "manual" });
    expect(res.status).toBe(404);
    expect(res.headers.get("location")).toBeNull();
    expectPageHeaders(res);
    expect(await res.text()).toContain("<title>Page not found</title>");
  });
});

describe("signed out", () => {
  it("shows a login page that posts to /session with a CSRF token and comes back", async () => {
    const browser = new Browser(t.auth);
    const path = authorizePath({ client_id: DEMO.app.clientId, scope: "repo", state: "s1" });
    const res = await browser.get(path);
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("service_login_csrf="))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    const page = await res.text();
    expect(page).toContain("Demo App");
    expect(page).toMatch(/<input type="password" id="password" name="password"/);
    const fields = formFields(page, PATHS.signIn);
    expect(fields.csrf_token).toBe(browser.cookies.get("service_login_csrf"));
    expect(fields.return_to).toBe(path);
  });

  it("redirects a suspended application's request to its registered callback with application_suspended", async () => {
    const res = await fetch(`${t.auth}${authorizePath({ client_id: DEMO.suspendedApp.clientId, state: "s-1", redirect_uri: "http://127.0.0.1:8081/callback/x" })}`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(target(res)).toBe(DEMO.suspendedApp.callback);
    expect(query(res)).toEqual({
      error: "application_suspended",
      error_description: "Your application has been suspended. Contact support.",
      error_uri: "https://developer.service.example/v3/oauth/#application-suspended",
      state: "s-1",
    });
  });

  it("sends no state back when none was sent", async () => {
    const res = await fetch(`${t.auth}${authorizePath({ client_id: DEMO.suspendedApp.clientId })}`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(query(res)).not.toHaveProperty("state");
  });

  it("answers a redirect_uri mismatch before asking anyone to sign in", async () => {
    const res = await fetch(`${t.auth}${authorizePath({ client_id: DEMO.app.clientId, redirect_uri: "http://evil.example/callback", state: "s2" })}`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(target(res)).toBe(DEMO.app.callback);
    expect(query(res)).toEqual({
      error: "redirect_uri_mismatch",
      error_description: "The redirect_uri MUST match the registered callback URL for this application.",
      error_uri: "https://developer.service.example/v3/oauth/#redirect-uri-mismatch",
      state: "s2",
    });
  });
});

describe("redirect_uri rules", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await signedInBrowser(t, "defunkt");
  });

  const cases: [string, string, string, boolean][] = [
    // The seed's examples, for a callback of http://example.com/path.
    ["seed: the path itself", EXAMPLE.clientId, "http://example.com/path", true],
    ["seed: a subdirectory", EXAMPLE.clientId, "http://example.com/path/subdir/other", true],
    ["seed: a different path", EXAMPLE.clientId, "http://example.com/bar", false],
    ["seed: the root path", EXAMPLE.clientId, "http://example.com/", false],
    ["seed: a different port", EXAMPLE.clientId, "http://example.com:8080/path", false],
    ["seed: a different subdomain", EXAMPLE.clientId, "http://oauth.example.com/path", false],
    ["seed: a different domain", EXAMPLE.clientId, "http://example.org/path", false],
    // The same rules against the demo app's http://127.0.0.1:8080/callback.
    ["the callback itself", DEMO.app.clientId, "http://127.0.0.1:8080/callback", true],
    ["a subdirectory", DEMO.app.clientId, "http://127.0.0.1:8080/callback/sub", true],
    ["a deeper subdirectory with a query", DEMO.app.clientId, "http://127.0.0.1:8080/callback/sub/other?x=1", true],
    ["the callback with a trailing slash", DEMO.app.clientId, "http://127.0.0.1:8080/callback/", true],
    ["a longer name, not a subdirectory", DEMO.app.clientId, "http://127.0.0.1:8080/callbackx", false],
    ["a prefix of the path", DEMO.app.clientId, "http://127.0.0.1:8080/call", false],
    ["the root", DEMO.app.clientId, "http://127.0.0.1:8080/", false],
    ["another port", DEMO.app.clientId, "http://127.0.0.1:8081/callback", false],
    ["no port (80)", DEMO.app.clientId, "http://127.0.0.1/callback", false],
    ["localhost for 127.0.0.1", DEMO.app.clientId, "http://localhost:8080/callback", false],
    ["another scheme", DEMO.app.clientId, "https://127.0.0.1:8080/callback", false],
    ["a host that only starts with the callback's", DEMO.app.clientId, "http://127.0.0.1:8080.evil.example/callback", false],
    ["dot segments leaving the path", DEMO.app.clientId, "http://127.0.0.1:8080/callback/../evil", false],
    ["encoded dot segments leaving the path", DEMO.app.clientId, "http://127.0.0.1:8080/callback/%2e%2e/evil", false],
    // Paths another parser could read as outside the callback (DECISIONS: redirect URI path tricks).
    ["an encoded slash after a dot segment", DEMO.app.clientId, "http://127.0.0.1:8080/callback/..%2Fevil", false],
    ["an encoded slash in upper and lower case", DEMO.app.clientId, "http://127.0.0.1:8080/callback/a%2fb", false],
    ["an encoded backslash", DEMO.app.clientId, "http://127.0.0.1:8080/callback/..%5Cevil", false],
    ["a raw backslash (WHATWG reads it as /)", DEMO.app.clientId, "http://127.0.0.1:8080/callback\\sub", false],
    ["an encoded NUL", DEMO.app.clientId, "http://127.0.0.1:8080/callback/%00", false],
    ["an encoded control character", DEMO.app.clientId, "http://127.0.0.1:8080/callback/%0d%0aevil", false],
    ["a dot segment staying inside the path", DEMO.app.clientId, "http://127.0.0.1:8080/callback/sub/../other", false],
    ["a single dot segment", DEMO.app.clientId, "http://127.0.0.1:8080/callback/./sub", false],
    ["a half-encoded dot segment", DEMO.app.clientId, "http://127.0.0.1:8080/callback/.%2E/evil", false],
    ["a double-encoded dot segment", DEMO.app.clientId, "http://127.0.0.1:8080/callback/%252e%252e/evil", false],
    ["a double-encoded slash", DEMO.app.clientId, "http://127.0.0.1:8080/callback/..%252Fevil", false],
    ["an overlong UTF-8 dot segment", DEMO.app.clientId, "http://127.0.0.1:8080/callback/%c0%ae%c0%ae/evil", false],
    ["an IIS-style %u dot segment", DEMO.app.clientId, "http://127.0.0.1:8080/callback/%u002e%u002e/evil", false],
    ["a stray percent sign", DEMO.app.clientId, "http://127.0.0.1:8080/callback/100%", false],
    ["fullwidth dots (NFKC ..)", DEMO.app.clientId, "http://127.0.0.1:8080/callback/\uff0e\uff0e/evil", false],
    ["an encoded fullwidth slash (NFKC /)", DEMO.app.clientId, "http://127.0.0.1:8080/callback/..%EF%BC%8Fevil", false],
    ["an encoded é (valid UTF-8, not ambiguous)", DEMO.app.clientId, "http://127.0.0.1:8080/callback/caf%C3%A9", true],
    ["dots inside a name (not a dot segment)", DEMO.app.clientId, "http://127.0.0.1:8080/callback/v1..2/file.txt", true],
    ["an encoded space (not ambiguous)", DEMO.app.clientId, "http://127.0.0.1:8080/callback/a%20b", true],
    ["a fragment", DEMO.app.clientId, "http://127.0.0.1:8080/callback#frag", false],
    ["a relative reference", DEMO.app.clientId, "/callback", false],
    ["not a URL", DEMO.app.clientId, "not a url", false],
    // Host and port as written (DECISIONS: Redirect URI host and port as written).
    ["the scheme in upper case", DEMO.app.clientId, "HTTP://127.0.0.1:8080/callback", true],
    ["a host name in mixed case", EXAMPLE.clientId, "http://ExAmple.COM/path", true],
    ["the explicit default port", EXAMPLE.clientId, "http://example.com:80/path", true],
    ["the host as one decimal number", DEMO.app.clientId, "http://2130706433:8080/callback", false],
    ["the host in hexadecimal", DEMO.app.clientId, "http://0x7f000001:8080/callback", false],
    ["the host in octal", DEMO.app.clientId, "http://0177.0.0.1:8080/callback", false],
    ["a shortened IPv4 host", DEMO.app.clientId, "http://127.1:8080/callback", false],
    ["a trailing dot on the host", DEMO.app.clientId, "http://127.0.0.1.:8080/callback", false],
    ["a trailing dot on a host name", EXAMPLE.clientId, "http://example.com./path", false],
    ["fullwidth digits in the host", DEMO.app.clientId, "http://\uff11\uff12\uff17.0.0.1:8080/callback", false],
    ["a port with a leading zero", DEMO.app.clientId, "http://127.0.0.1:08080/callback", false],
    ["a default port with a leading zero", EXAMPLE.clientId, "http://example.com:080/path", false],
    ["an empty port", EXAMPLE.clientId, "http://example.com:/path", false],
    ["one slash after the scheme", DEMO.app.clientId, "http:/127.0.0.1:8080/callback", false],
    ["three slashes after the scheme", DEMO.app.clientId, "http:///127.0.0.1:8080/callback", false],
    ["backslashes after the scheme", DEMO.app.clientId, "http:\\\\127.0.0.1:8080/callback", false],
    ["a leading space", DEMO.app.clientId, " http://127.0.0.1:8080/callback", false],
    ["a trailing space", DEMO.app.clientId, "http://127.0.0.1:8080/callback ", false],
    ["a tab inside the host", DEMO.app.clientId, "http://127.0.\t0.1:8080/callback", false],
    ["an empty userinfo", DEMO.app.clientId, "http://:@127.0.0.1:8080/callback", false],
    ["an empty user name", DEMO.app.clientId, "http://@127.0.0.1:8080/callback", false],
    ["a percent-encoded host", DEMO.app.clientId, "http://%31%32%37.0.0.1:8080/callback", false],
  ];

  it.each(cases)("%s (%s, %s) → accepted: %s", async (_name, clientId, redirectUri, accepted) => {
    const res = await browser.get(authorizePath({ client_id: clientId, redirect_uri: redirectUri, state: "st" }));
    if (accepted) {
      expect(res.status, "the consent page").toBe(200);
      expect(formFields(await res.text(), PATHS.decision).redirect_uri).toBe(new URL(redirectUri).href);
    } else {
      expect(res.status).toBe(302);
      const callback = clientId === EXAMPLE.clientId ? EXAMPLE.callback : DEMO.app.callback;
      expect(target(res), "the registered callback").toBe(callback);
      expect(query(res)).toMatchObject({ error: "redirect_uri_mismatch", state: "st" });
    }
  });

  it("sends the code to an accepted subdirectory", async () => {
    const hubot = await signedInBrowser(t, "hubot");
    const { location } = await codeFor(hubot, { client_id: DEMO.app.clientId, redirect_uri: "http://127.0.0.1:8080/callback/sub?keep=1", state: "sub" });
    expect(`${location.origin}${location.pathname}`).toBe("http://127.0.0.1:8080/callback/sub");
    expect(location.searchParams.get("keep")).toBe("1");
    expect(location.searchParams.get("state")).toBe("sub");
  });
});

describe("consent", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await signedInBrowser(t, "octocat");
  });

  it("lists the normalised scopes with the seed's descriptions: user,gist,user:email → user and gist", async () => {
    const res = await browser.get(authorizePath({ client_id: DEMO.app.clientId, scope: "user,gist,user:email" }));
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    const page = await res.text();
    expect(page).toContain("<code>user</code>");
    expect(page).toContain("Read/write access to profile info only; includes user:email and user:follow.");
    expect(page).toContain("<code>gist</code>");
    expect(page).toContain("Write access to gists.");
    expect(page).not.toContain("<code>user:email</code>");
    expect(page).not.toContain("e-mail addresses");
    expect(page).toMatch(/<button type="submit" name="decision" value="authorize"/);
    expect(page).toMatch(/<button type="submit" name="decision" value="deny"/);
    expect(formFields(page, PATHS.decision).scope).toBe("gist,user");
  });

  it.each([
    ["space-separated", "repo user", ["repo", "user"]],
    ["mixed separators", "repo, gist  user:follow", ["gist", "repo", "user:follow"]],
    ["unknown names ignored", "repo,bogus,admin:everything", ["repo"]],
    ["implied ones dropped", "admin:org,read:org,write:org", ["admin:org"]],
  ])("%s: %s", async (_name, scope, expected) => {
    const page = await (await browser.get(authorizePath({ client_id: DEMO.app.clientId, scope }))).text();
    expect(formFields(page, PATHS.decision).scope).toBe(expected.join(","));
  });

  it("describes an empty scope list as public read-only access", async () => {
    const page = await (await browser.get(authorizePath({ client_id: DEMO.app.clientId }))).text();
    expect(page).toContain("Read-only access to public information (public user profile, public repositories, gists).");
  });

  it("denying redirects to the registered callback with access_denied and the state", async () => {
    const res = await decide(browser, { client_id: DEMO.app.clientId, redirect_uri: "http://127.0.0.1:8080/callback/deep", scope: "repo", state: "deny me" }, "deny");
    expect(res.status).toBe(303);
    expect(target(res)).toBe(DEMO.app.callback);
    expect(query(res)).toEqual({
      error: "access_denied",
      error_description: "The user has denied your application access.",
      error_uri: "https://developer.service.example/v3/oauth/#access-denied",
      state: "deny me",
    });
  });

  it("approving redirects with a code and the state unchanged, and the code buys a user,gist token", async () => {
    const state = "a b&c=d/é+%";
    const { code, location } = await codeFor(browser, { client_id: DEMO.app.clientId, scope: "user,gist,user:email", state });
    expect(`${location.origin}${location.pathname}`).toBe(DEMO.app.callback);
    expect(location.searchParams.get("state")).toBe(state);
    const body = await (await exchange(t, { ...APP_CREDENTIALS, code }, "application/json")).json();
    expect(body.scope.split(",").sort()).toEqual(["gist", "user"]);
    expect(body.scope).toBe("gist,user");
  });

  it("completes at once for an application already authorized, with the scopes of the last time", async () => {
    const res = await browser.get(authorizePath({ client_id: DEMO.app.clientId, scope: "gist", state: "again" }));
    expect(res.status).toBe(302);
    expect(target(res)).toBe(DEMO.app.callback);
    const { code, state } = query(res);
    expect(state).toBe("again");
    const body = await (await exchange(t, { ...APP_CREDENTIALS, code: code! }, "application/json")).json();
    expect(body.scope).toBe("gist,user");
  });

  it("asks again when the application wants more than was granted", async () => {
    const res = await browser.get(authorizePath({ client_id: DEMO.app.clientId, scope: "repo" }));
    expect(res.status).toBe(200);
    expect(formFields(await res.text(), PATHS.decision).scope).toBe("repo");
  });

  it("escapes the application's name and the state in the page", async () => {
    await createApplication(t.server.db, { clientId: "evil-name-app", clientSecret: "s3cret-s3cret-s3cret", name: `<img src=x onerror=alert(1)> & "Co"`, url: "http://127.0.0.1:9999", callbackUrl: "http://127.0.0.1:9999/cb" });
    const res = await browser.get(authorizePath({ client_id: "evil-name-app", state: `"><script>alert(1)</script>` }));
    const page = await res.text();
    expect(page).not.toContain("<img src=x");
    expect(page).not.toContain("<script>");
    expect(page).toContain("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;");
    expect(formFields(page, PATHS.decision).state).toBe(`"><script>alert(1)</script>`);
    expect(res.headers.get("content-security-policy")).toContain("form-action 'self' http://127.0.0.1:9999");
  });
});

/** The seed's scope table (Authentication › Scopes), word for word (but for `repo`). */
const SEED_SCOPES: [string, string][] = [
  ["user", "Read/write access to profile info only; includes user:email and user:follow."],
  ["user:email", "Read access to the user's e-mail addresses."],
  ["user:follow", "Follow and unfollow other users."],
  ["public_repo", "Read/write access to code, commit statuses and deployment statuses of public repositories and organizations."],
  // The seed says "The same for public and private …", relative to the row above; alone on a page it is spelled out.
  ["repo", "Read/write access to code, commit statuses and deployment statuses of public and private repositories and organizations."],
  ["repo_deployment", "Access to deployment statuses of public and private repositories, without code access."],
  ["repo:status", "Read/write access to commit statuses of public and private repositories, without code access."],
  ["delete_repo", "Delete repositories the user can administer."],
  ["notifications", "Read access to the user's notifications (repo also provides it)."],
  ["gist", "Write access to gists."],
  ["read:repo_hook", "Read and ping hooks in public or private repositories."],
  ["write:repo_hook", "Read, write and ping hooks in public or private repositories."],
  ["admin:repo_hook", "Read, write, ping and delete hooks in public or private repositories."],
  ["admin:org_hook", "Read, write, ping and delete organization hooks. OAuth tokens only on hooks created by the OAuth application; personal access tokens only on hooks created by a user."],
  ["read:org", "Read-only access to organization, teams and membership."],
  ["write:org", "Publicize and unpublicize organization membership."],
  ["admin:org", "Fully manage organization, teams and memberships."],
  ["read:public_key", "List and view details for public keys."],
  ["write:public_key", "Create, list and view details for public keys."],
  ["admin:public_key", "Fully manage public keys."],
];

/**
 * Every implication of the seed's table (a scope that "includes" or is "the same for" more, or
 * whose grant is a superset: write ⊃ read, admin ⊃ write), and pairs that imply nothing.
 */
const IMPLICATIONS: [requested: string, normalized: string[]][] = [
  ["user,user:email", ["user"]],
  ["user,user:follow", ["user"]],
  ["user,gist,user:email", ["gist", "user"]],
  ["repo,public_repo", ["repo"]],
  ["repo,repo:status", ["repo"]],
  ["repo,repo_deployment", ["repo"]],
  ["repo,notifications", ["repo"]],
  ["admin:repo_hook,write:repo_hook", ["admin:repo_hook"]],
  ["admin:repo_hook,read:repo_hook", ["admin:repo_hook"]],
  ["write:repo_hook,read:repo_hook", ["write:repo_hook"]],
  ["admin:org,write:org", ["admin:org"]],
  ["admin:org,read:org", ["admin:org"]],
  ["write:org,read:org", ["write:org"]],
  ["admin:public_key,write:public_key", ["admin:public_key"]],
  ["admin:public_key,read:public_key", ["admin:public_key"]],
  ["write:public_key,read:public_key", ["write:public_key"]],
  // Nothing implied: both stay.
  ["user:email,user:follow", ["user:email", "user:follow"]],
  ["public_repo,repo:status", ["public_repo", "repo:status"]],
  ["repo,delete_repo", ["delete_repo", "repo"]],
  ["admin:org,admin:org_hook", ["admin:org", "admin:org_hook"]],
  ["admin:repo_hook,admin:org_hook", ["admin:org_hook", "admin:repo_hook"]],
  ["repo,gist", ["gist", "repo"]],
];

function decodeEntities(page: string): string {
  return page.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

describe("every scope of the seed's table", () => {
  // defunkt has granted nothing in this file, so every request shows the consent page.
  let browser: Browser;
  beforeAll(async () => {
    browser = await signedInBrowser(t, "defunkt");
  });

  it("the table lists all 20 scopes", () => {
    expect(SEED_SCOPES).toHaveLength(20);
  });

  it.each(SEED_SCOPES)("the consent page describes %s in the seed's words", async (scope, description) => {
    const res = await browser.get(authorizePath({ client_id: DEMO.app.clientId, scope }));
    expect(res.status).toBe(200);
    const page = decodeEntities(await res.text());
    expect(page).toContain(`<code>${scope}</code>`);
    expect(page).toContain(description);
  });

  it.each(IMPLICATIONS)("normalises %s to %j on the consent page, and in the non-web flow", async (requested, normalized) => {
    const page = await (await browser.get(authorizePath({ client_id: DEMO.app.clientId, scope: requested }))).text();
    expect(formFields(page, PATHS.decision).scope).toBe(normalized.join(","));
    const res = await fetch(`${t.api}/authorizations`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${DEMO.octocat.login}:${DEMO.octocat.password}`).toString("base64")}`, "content-type": "application/json" },
      body: JSON.stringify({ note: `normalise ${requested}`, scopes: requested.split(",") }),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { scopes: string[] }).scopes).toEqual(normalized);
  });

  it("normalises what the token endpoint reports: the code's token has the normalised scopes", async () => {
    const hubot = await signedInBrowser(t, "hubot");
    const { code } = await codeFor(hubot, { client_id: DEMO.app.clientId, scope: "admin:repo_hook,read:repo_hook,repo,notifications,repo:status" });
    const body = await (await exchange(t, { ...APP_CREDENTIALS, code }, "application/json")).json();
    expect(body.scope).toBe("admin:repo_hook,repo");
  });
});
