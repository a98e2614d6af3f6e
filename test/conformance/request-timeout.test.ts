/**
 * The per-request time-out in the suite's HttpClient, against a real server that stops
 * answering: the failure names the request that hung, the curl line is that request, and the form
 * driver keeps the password out of both when the sign-in request is the one that hangs (a GET
 * login form puts it in the URL).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizeWithForm } from "../../conformance/authorize/form.ts";
import { CaseFailure } from "../../conformance/core/failure.ts";
import { curlOf, HttpClient } from "../../conformance/core/http.ts";
import type { Profile } from "../../conformance/core/profile.ts";
import { startFakeTarget, type FakeTarget } from "./fake-target.ts";

const PASSWORD = "pa55 word&secret";
/**
 * The client's per-request limit here: the requests that are answered must make it on a busy
 * machine too (a 300 ms limit failed the answered ones under load), and the hanging one costs it.
 */
const LIMIT_MS = 2000;

let target: FakeTarget;
beforeAll(async () => {
  target = await startFakeTarget((req, res) => {
    if (req.url?.startsWith("/login/oauth/authorize")) {
      res.writeHead(200, { "content-type": "text/html" }).end(`<form method="get" action="/session"><input name="login"><input type="password" name="password"><button type="submit">Sign in</button></form>`);
    } else if (req.url === "/quick") {
      res.writeHead(404, { "content-type": "application/json" }).end("{}");
    }
    // Everything else: accepted, never answered.
  });
});
afterAll(() => target?.close());

describe("a request that gets no answer", () => {
  it("fails within the request time-out, naming the request, and lastSent is that request", async () => {
    const http = new HttpClient(target.url, target.url, fetch, { timeoutMs: LIMIT_MS });
    await http.request({ path: "/quick", validate: false });
    // Without the limit this would hang until the test's own time-out; its message names the limit.
    const error = await http.request({ path: "/hangs?x=1", validate: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CaseFailure);
    expect((error as CaseFailure).message).toBe(`no answer within 2 s: GET ${target.url}/hangs?x=1`);
    expect(http.last?.url).toBe(`${target.url}/quick`);
    expect(curlOf(http.lastSent!)).toContain(`'${target.url}/hangs?x=1'`);
  });

  it("a sign-in that hangs: the password is in neither the failure nor the request recorded", async () => {
    const http = new HttpClient(target.url, target.url, fetch, { timeoutMs: LIMIT_MS });
    const profile: Profile = { users: [{ login: "tester", password: PASSWORD }], app: { clientId: "c", clientSecret: "s", callbackUrl: "http://127.0.0.1:8080/cb" }, authorize: { driver: "form" } };
    const error = await authorizeWithForm(profile, target.url, { client_id: "c" }, { http }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CaseFailure);
    const message = (error as CaseFailure).message;
    expect(message).toMatch(/^no answer within 2 s: GET .*\/session\?login=tester&password=\*\*\*$/);
    expect(curlOf(http.lastSent!)).toContain("password=***");
    const encoded = new URLSearchParams({ p: PASSWORD }).toString().slice(2);
    expect(JSON.stringify(http.lastSent)).not.toContain(encoded);
    // The server did get the real password: the masking is in the report only.
    expect(target.requests.some((r) => r.url.includes(encoded))).toBe(true);
  });
});
