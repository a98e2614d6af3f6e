/**
 * Issue 34, point 5: no profile secret in any report. A target that echoes every request back in
 * its answers (headers, query, body, and a Basic header decoded) makes failures that carry the
 * secrets the suite sent — the client secret inside an array (OAUTH-UNREADABLE-001), passwords in
 * Basic headers, tokens, the two-factor user's password — in messages, actual values and curl
 * lines. After a run through the CLI with all four reporters, neither the console output nor any
 * report file holds any secret of the profile, in any of the forms it travels in (as is,
 * URL-encoded, JSON-escaped, base64 in a Basic header).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliInProcess } from "../cli/in-process.ts";
import { curlOf } from "../../conformance/core/http.ts";
import { secretRedactor } from "../../conformance/core/secret-redact.ts";
import { IssuedTokens } from "../../conformance/core/issued-tokens.ts";
import { startFakeTarget, type FakeTarget } from "./fake-target.ts";
import { ceiling } from "../ceilings.ts";

const SECRETS = {
  password: "pa55-w0rd'secret&x",
  token: "0123456789abcdef0123456789abcdef01234567",
  password2: "hubot-pa55-secret",
  token2: "fedcba9876543210fedcba9876543210fedcba98",
  clientSecret: "client-secret-abcdef-123456",
  otherSecret: "other-client-secret-654321",
  twoFactorPassword: "two-factor-pa55word",
  totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
  adminToken: "admin-token-0123456789abcdef",
};

const dir = mkdtempSync(join(tmpdir(), "sc-report-secrets-"));
const PROFILE = join(dir, "profile.json");
let target: FakeTarget;

beforeAll(async () => {
  // Every answer: 200, JSON, the request echoed — a failure's actual value is the secrets sent.
  target = await startFakeTarget((req, res, body) => {
    const auth = String(req.headers.authorization ?? "");
    const basic = /^basic /i.test(auth) ? Buffer.from(auth.slice(6), "base64").toString("utf8") : undefined;
    res.writeHead(200, { "content-type": "application/json", "x-echo": encodeURIComponent(auth) }).end(JSON.stringify({ message: `${req.method} ${req.url} ${auth} ${basic ?? ""} ${body}`, echo: { headers: req.headers, body, basic, secretsAsNumbers: [Number(SECRETS.token.slice(0, 10))] } }));
  });
  writeFileSync(
    PROFILE,
    JSON.stringify({
      users: [
        { login: "octocat", password: SECRETS.password, token: SECRETS.token },
        { login: "hubot", password: SECRETS.password2, token: SECRETS.token2 },
      ],
      app: { clientId: "cid-123456", clientSecret: SECRETS.clientSecret, callbackUrl: "http://127.0.0.1:9/cb" },
      otherApp: { clientId: "cid-other", clientSecret: SECRETS.otherSecret },
      twoFactor: { login: "twofa", password: SECRETS.twoFactorPassword, totpSecret: SECRETS.totpSecret },
      repos: { public: "octocat/hello-world", private: "octocat/secret-repo" },
      org: "octo-org",
      issue: 1,
      deliveryTimeoutMs: 500,
      triggers: { push: [{ http: { method: "POST", url: "/_admin/simulate/push", headers: { "X-Admin-Token": SECRETS.adminToken }, body: { repo: "{repo}" } } }] },
    }),
  );
});
afterAll(() => target?.close());

/** Every form a secret travels in: as is, URL-encoded (query, form), JSON-escaped, in a Basic header. */
function forms(): Record<string, string> {
  const all: Record<string, string> = {};
  for (const [name, value] of Object.entries(SECRETS)) {
    all[name] = value;
    all[`${name} (url)`] = encodeURIComponent(value);
    all[`${name} (form)`] = new URLSearchParams({ v: value }).toString().slice(2);
    all[`${name} (json)`] = JSON.stringify(value).slice(1, -1);
  }
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  all["Basic octocat"] = b64(`octocat:${SECRETS.password}`);
  all["Basic hubot"] = b64(`hubot:${SECRETS.password2}`);
  all["Basic app"] = b64(`cid-123456:${SECRETS.clientSecret}`);
  all["Basic two-factor"] = b64(`twofa:${SECRETS.twoFactorPassword}`);
  return all;
}

describe("the profile's secrets in reports", () => {
  it("appear in none of the four reports after a run whose failures carry them", async () => {
    const out = join(dir, "report");
    const result = await runCliInProcess(["conformance", "--base-url", target.url, "--auth-url", target.url, "--profile", PROFILE, "--only", "oauth,contract,HOOKS-ORG-001,webhooks", "--reporter", "console,junit,json,html", "--out", out]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    // The run did send them, and failed on answers carrying them back.
    expect(target.requests.some((r) => r.headers.authorization === `token ${SECRETS.token}`)).toBe(true);
    expect(target.requests.some((r) => r.body.includes(`"client_secret":["${SECRETS.clientSecret}"]`))).toBe(true);
    const reports: Record<string, string> = { console: result.stdout + result.stderr };
    for (const file of ["junit.xml", "results.json", "report.html"]) reports[file] = readFileSync(join(out, file), "utf8");
    // The failure of OAUTH-UNREADABLE-001 is there, with its curl line naming the variable.
    expect(reports["results.json"]).toContain("OAUTH-UNREADABLE-001");
    expect(reports["results.json"]).toContain("$CONFORMANCE_CLIENT_SECRET");
    expect(reports["results.json"]).toContain("$CONFORMANCE_TOKEN");
    for (const [report, text] of Object.entries(reports)) {
      for (const [name, form] of Object.entries(forms())) expect(text.includes(form), `${name} in ${report}`).toBe(false);
    }
  }, ceiling(60_000));
});

describe("tokens the target issues during the run", () => {
  it("appear in no report: each is named $CONFORMANCE_RUN_TOKEN_<n>, whatever carries it back", async () => {
    // Each token-issuing answer (the exchange, /authorizations…) carries a fresh token in JSON;
    // every answer echoes the Authorization header sent, so failures and curl lines carry them.
    const issued: string[] = [];
    const fresh = () => {
      const token = `issued${String(issued.length).padStart(4, "0")}${"9f".repeat(17)}`;
      issued.push(token);
      return token;
    };
    const issuing = await startFakeTarget((req, res) => {
      const path = (req.url ?? "/").split("?")[0]!;
      const echo = String(req.headers.authorization ?? "");
      if (req.method !== "GET" && /^\/(login\/oauth\/access_token|authorizations)/.test(path)) {
        const token = fresh();
        res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ id: issued.length, token, access_token: token, token_type: "bearer", scope: "", echo }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json", "x-echo": encodeURIComponent(echo) }).end(JSON.stringify({ message: `${req.method} ${req.url} ${echo}` }));
    });
    try {
      const out = join(dir, "report-issued");
      const result = await runCliInProcess(["conformance", "--base-url", issuing.url, "--auth-url", issuing.url, "--profile", PROFILE, "--only", "oauth,HOOKS-OWNERSHIP-001", "--reporter", "console,junit,json,html", "--out", out]);
      expect(result.code, result.stderr).toBe(1);
      // Tokens were issued, and the suite sent them back to the target.
      expect(issued.length).toBeGreaterThan(0);
      expect(issuing.requests.some((r) => issued.some((t) => String(r.headers.authorization ?? "").includes(t) || r.url.includes(t)))).toBe(true);
      const reports: Record<string, string> = { console: result.stdout + result.stderr };
      for (const file of ["junit.xml", "results.json", "report.html"]) reports[file] = readFileSync(join(out, file), "utf8");
      expect(reports["results.json"]).toMatch(/\$CONFORMANCE_RUN_TOKEN_\d+/);
      for (const [report, text] of Object.entries(reports)) for (const token of issued) expect(text.includes(token), `${token} in ${report}`).toBe(false);
    } finally {
      await issuing.close();
    }
  }, ceiling(60_000));

  it("a short or common value in a token field is no token: the reports keep the words", () => {
    const tokens = new IssuedTokens();
    tokens.fromAnswer("http://h/authorizations", JSON.stringify({ token: "application" }));
    tokens.fromAnswer("http://h/events", JSON.stringify({ token: "0123456789abcdef0123456789abcdef" }));
    expect(tokens.list()).toEqual([]);
    tokens.fromAnswer("http://h/login/oauth/access_token", "access_token=0123456789abcdef0123&scope=repo&token_type=bearer");
    tokens.fromAnswer("http://h/login/oauth/access_token", "<OAuth><access_token>fedcba9876543210fedc</access_token></OAuth>");
    expect(tokens.list()).toEqual([
      { value: "0123456789abcdef0123", variable: "CONFORMANCE_RUN_TOKEN_1" },
      { value: "fedcba9876543210fedc", variable: "CONFORMANCE_RUN_TOKEN_2" },
    ]);
  });
});

describe("curl lines", () => {
  it("mark a client secret of any JSON type: an array, a number, an object's values", () => {
    const sent = (json: unknown) => ({ method: "POST", url: "http://h/login/oauth/access_token", requestHeaders: {}, requestBody: JSON.stringify(json) });
    expect(curlOf(sent({ client_id: 1, client_secret: ["s3cr3t-value"], code: "c" }))).toBe(`curl -i -X POST 'http://h/login/oauth/access_token' --data-raw '{"client_id":1,"client_secret":["'"$CONFORMANCE_CLIENT_SECRET"'"],"code":"c"}'`);
    expect(curlOf(sent({ client_secret: 123456789 }))).toBe(`curl -i -X POST 'http://h/login/oauth/access_token' --data-raw '{"client_secret":'"$CONFORMANCE_CLIENT_SECRET"'}'`);
    expect(curlOf(sent({ client_secret: { value: "s3cr3t", n: [42] } }))).toBe(`curl -i -X POST 'http://h/login/oauth/access_token' --data-raw '{"client_secret":{"value":"'"$CONFORMANCE_CLIENT_SECRET"'","n":['"$CONFORMANCE_CLIENT_SECRET"']}}'`);
  });

  it("carry a two-factor code as $CONFORMANCE_OTP, and a body of megabytes cut", () => {
    expect(curlOf({ method: "GET", url: "http://h/authorizations", requestHeaders: { "x-service-otp": "123456" } })).toBe(`curl -i -X GET 'http://h/authorizations' -H 'x-service-otp: '"$CONFORMANCE_OTP"`);
    const line = curlOf({ method: "POST", url: "http://h/x", requestHeaders: {}, requestBody: "a".repeat(2 * 1024 * 1024) });
    expect(line.length).toBeLessThan(17 * 1024);
    expect(line).toMatch(/# the body is cut here: its first 16384 of 2097152 characters$/);
  });

  it("name a secret found by value by its variable, spliced out of the quotes so the line still runs", () => {
    const redact = secretRedactor({ users: [{ login: "octocat", token: SECRETS.token }] });
    const result = redact({ failure: { message: `token ${SECRETS.token} refused`, actual: { echo: [SECRETS.token] }, curl: `curl -i -X GET 'http://h/user' -H 'authorization: token ${SECRETS.token}'` } });
    expect(result.failure.message).toBe("token $CONFORMANCE_TOKEN refused");
    expect(result.failure.actual).toEqual({ echo: ["$CONFORMANCE_TOKEN"] });
    expect(result.failure.curl).toBe(`curl -i -X GET 'http://h/user' -H 'authorization: token '"$CONFORMANCE_TOKEN"`);
  });
});
