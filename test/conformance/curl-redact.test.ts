/**
 * Issue 23, point 9: the repro curl lines of the reports (conformance/core/http.ts `curlOf`) carry
 * no password and no client secret — Basic credentials, `client_secret` in a form, a JSON body or
 * a query — and stay runnable: the secret is a shell variable (`$CONFORMANCE_PASSWORD`,
 * `$CONFORMANCE_CLIENT_SECRET`). Checked by running each line's words through a real shell with
 * the variables set and comparing the arguments curl would get.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { curlOf, type SentRequest } from "../../conformance/core/http.ts";

const PASSWORD = "octocat-demo-password";
const SECRET = "demo-client-secret-0001-keep-it-private";
const b64 = (s: string) => Buffer.from(s).toString("base64");

/** The arguments a shell makes of `line` (with `curl` replaced by printf), the variables set to the real secrets. */
function argv(line: string): string[] {
  const out = execFileSync("sh", ["-c", line.replace(/^curl /, "printf '%s\\0' ")], {
    env: { PATH: process.env.PATH, CONFORMANCE_PASSWORD: PASSWORD, CONFORMANCE_CLIENT_SECRET: SECRET },
  }).toString();
  return out.split("\0").slice(0, -1);
}

describe("curl lines in reports", () => {
  it("write a user's Basic password as $CONFORMANCE_PASSWORD, runnable", () => {
    const line = curlOf({ method: "POST", url: "http://127.0.0.1:3000/authorizations", requestHeaders: { authorization: `Basic ${b64(`octocat:${PASSWORD}`)}`, "content-type": "application/json" }, requestBody: '{"scopes":["repo"],"note":"it\'s mine"}' });
    expect(line).not.toContain(PASSWORD);
    expect(line).not.toContain(b64(`octocat:${PASSWORD}`));
    expect(line).toContain("$CONFORMANCE_PASSWORD");
    expect(argv(line)).toEqual(["-i", "-X", "POST", "http://127.0.0.1:3000/authorizations", "-u", `octocat:${PASSWORD}`, "-H", "content-type: application/json", "--data-raw", '{"scopes":["repo"],"note":"it\'s mine"}']);
  });

  it("write an application's secret as $CONFORMANCE_CLIENT_SECRET: Basic on /applications/, a form, JSON, a query", () => {
    const cases: SentRequest[] = [
      { method: "GET", url: "http://h/applications/cid/tokens/abc", requestHeaders: { authorization: `Basic ${b64(`cid:${SECRET}`)}` } },
      { method: "POST", url: "http://h/login/oauth/access_token", requestHeaders: { "content-type": "application/x-www-form-urlencoded" }, requestBody: `client_id=cid&client_secret=${SECRET}&code=abc` },
      { method: "POST", url: "http://h/login/oauth/access_token", requestHeaders: { "content-type": "application/json" }, requestBody: JSON.stringify({ client_id: "cid", client_secret: SECRET, code: "abc" }) },
      { method: "PUT", url: "http://h/authorizations/clients/cid", requestHeaders: {}, requestBody: JSON.stringify({ client_secret: SECRET, scopes: [] }) },
      { method: "POST", url: `http://h/login/oauth/access_token?client_id=cid&client_secret=${SECRET}&code=abc`, requestHeaders: {} },
    ];
    for (const sent of cases) {
      const line = curlOf(sent);
      expect(line, sent.url).not.toContain(SECRET);
      expect(line, sent.url).toContain("$CONFORMANCE_CLIENT_SECRET");
      const args = argv(line);
      // Run through the shell with the variable set, the line sends exactly what was sent.
      expect(args[3], sent.url).toBe(sent.url);
      if (sent.requestBody !== undefined) expect(args.at(-1), sent.url).toBe(sent.requestBody);
      if (sent.requestHeaders.authorization !== undefined) expect(args.slice(4, 6)).toEqual(["-u", `cid:${SECRET}`]);
    }
  });

  it("leave requests without secrets as they were", () => {
    const line = curlOf({ method: "GET", url: "http://h/events?page=2", requestHeaders: { "if-none-match": '"abc"' } });
    expect(line).toBe(`curl -i -X GET 'http://h/events?page=2' -H 'if-none-match: "abc"'`);
  });
});
