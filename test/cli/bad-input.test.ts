/**
 * Every subcommand through a table of bad inputs, as a user types them: each must end with
 * exit 2 and exactly one line on stderr that says what is wrong (no stack trace, no help
 * fragments, nothing on stdout). One case per command (and the ones about a process: a folder
 * under /proc that used to spin, a lock held by another process, Ctrl-C) is a real `node
 * bin/service-contract.js` child; the other cases of the same exit-2 path call the CLI's `main`
 * in this process (runCliInProcess), which is what the binary runs, without a start each. The
 * ones on a held data folder share one running `serve`.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliBin, repoRoot, runCli, runCliInProcess, runLauncher, type CliResult } from "./run-cli.ts";
import { startServe, type ServeChild } from "../reference/serve-child.ts";
import { LOCK_FILE } from "../../reference/db/data-lock.ts";
import { ceiling } from "../ceilings.ts";

const scratch = mkdtempSync(join(tmpdir(), "cli-bad-input-"));
const aFile = join(scratch, "a-file");
writeFileSync(aFile, "not a folder\n");
const adminUrl = process.env.TEST_DATABASE_URL;
/** An address no machine has (TEST-NET-1, RFC 5737): listening on it fails with EADDRNOTAVAIL. */
const NOT_HERE = "192.0.2.1";
const badFixture = join(scratch, "bad-fixture.yaml");
writeFileSync(badFixture, "users:\n  - login: someone\n    password: someone-password\n    bogus: 1\n");

/** A port something already listens on. */
let busy: Server;
let busyPort = 0;
beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => busy.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
});

/** A real child of the binary, or `main` in this process. */
type How = "binary" | "in process";
const run = (how: How, args: string[], env?: Record<string, string>): Promise<CliResult> =>
  how === "in process"
    ? runCliInProcess(args, env ? { env } : {})
    : // bench/ is in a clone only, not in the compiled command: its binary runs through the launcher.
      (args[0] === "bench" ? runLauncher : runCli)(args, env ? { env } : {});

/** Runs the command and checks the promise: exit 2, one line matching `message`, nothing else. */
async function expectOneLine(args: string[], message: RegExp, how: How = "binary", env?: Record<string, string>): Promise<string> {
  const r = await run(how, args, env);
  const lines = r.stderr.split("\n").filter((l) => l.trim() !== "");
  expect({ code: r.code, lines: lines.length, stdout: r.stdout }, r.stderr).toEqual({ code: 2, lines: 1, stdout: "" });
  expect(lines[0]).toMatch(/^service-contract: /);
  expect(lines[0]).toMatch(message);
  return lines[0]!;
}

/** Each case is one CLI start (about 2 s alone); on a loaded 2-core machine five at once take far longer. */
const TIMEOUT = ceiling(120_000);

const SERVE = ["serve", "--port", "0", "--auth-port", "0", "--quiet"];
const badPassword = adminUrl ? Object.assign(new URL(adminUrl), { password: "not-the-password" }).href : undefined;

/**
 * [what, args (a function when it needs the busy port), message, how]: one case per command
 * through the binary (exit code and stderr of the process), the rest of each exit-2 path in process.
 */
const CASES: [string, () => string[], RegExp, How][] = [
  ["serve: unreachable PostgreSQL", () => [...SERVE, "--database-url", "postgres://u:secret@127.0.0.1:1/db"], /^service-contract: cannot connect to postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/db: .*ECONNREFUSED/, "in process"],
  ["serve: unknown PostgreSQL host", () => [...SERVE, "--database-url", "postgres://u:p@no-such-host.invalid/db"], /cannot connect to .*ENOTFOUND no-such-host\.invalid/, "in process"],
  ["serve: --data-dir under a file (ENOTDIR)", () => [...SERVE, "--data-dir", join(aFile, "db")], /cannot use data folder .*a-file\/db: ENOTDIR/, "in process"],
  ["serve: --data-dir under /proc (used to spin at 100% CPU)", () => [...SERVE, "--data-dir", "/proc/service-contract-test"], /cannot use data folder \/proc\/service-contract-test: ENOENT/, "binary"],
  ["serve: --seed with a typo", () => [...SERVE, "--seed", "demoo", "--data-dir", join(scratch, "seed-typo")], /--seed demoo: no such file; give demo, none or a fixture file/, "in process"],
  ["serve: a port in use", () => [...SERVE, "--port", String(busyPort), "--seed", "none", "--data-dir", join(scratch, "port-in-use")], /cannot listen on 127\.0\.0\.1 port \d+ \(--port\): EADDRINUSE: in use by another process; give another --port, or 0 for a free one$/, "in process"],
  ["serve: a --host that is not this machine's", () => [...SERVE, "--host", NOT_HERE, "--data-dir", join(scratch, "not-here")], /cannot listen on 192\.0\.2\.1 port 0 \(--port\): EADDRNOTAVAIL: 192\.0\.2\.1 is not an address of this machine; --host takes one of its addresses/, "in process"],
  ["serve: --seed a JSON file that is no fixture", () => [...SERVE, "--seed", "package.json", "--data-dir", join(scratch, "seed-package-json")], /seed fixture package\.json is not valid: \/ has unknown keys name, version, .*; allowed: users, organizations, follows, repositories, issues, applications \(the format: reference\/seed\/README\.md\)$/, "in process"],
  ["serve: a fixture with an unknown key on a user", () => [...SERVE, "--seed", badFixture, "--data-dir", join(scratch, "seed-bad-user")], /\/users\/0 has unknown key bogus; allowed: login, name, email, password, site_admin, two_factor/, "in process"],
  ["serve: a port out of range", () => ["serve", "--port", "70000"], /--port must be 0\.\.65535/, "binary"],
  ["simulate: --data-dir under a file", () => ["simulate", "push", "--data-dir", join(aFile, "db")], /cannot use data folder .*: ENOTDIR/, "in process"],
  ["simulate: --data-dir under /proc", () => ["simulate", "push", "--data-dir", "/proc/service-contract-test"], /cannot use data folder \/proc\/service-contract-test: ENOENT/, "in process"],
  ["simulate: unreachable PostgreSQL", () => ["simulate", "push", "--database-url", "postgres://u:p@127.0.0.1:1/db"], /cannot connect to .*ECONNREFUSED/, "in process"],
  ["simulate: an unknown event", () => ["simulate", "pushh"], /unknown event "pushh"; one of: .*push/, "binary"],
  ["simulate: --url nobody answers", () => ["simulate", "push", "--url", "http://127.0.0.1:1", "--admin-token", "0123456789abcdef0123"], /cannot reach http:\/\/127\.0\.0\.1:1/, "in process"],
  ["generate: --out under a file (ENOTDIR)", () => ["generate", "--targets", "types", "--out", join(aFile, "out")], /cannot write --out .*a-file\/out: ENOTDIR/, "in process"],
  ["generate: --out under /proc (used to spin at 100% CPU)", () => ["generate", "--targets", "types", "--out", "/proc/service-contract-test"], /cannot write --out \/proc\/service-contract-test: ENOENT/, "binary"],
  ["generate: a missing spec", () => ["generate", "--spec", "no/such/openapi.yaml", "--out", join(scratch, "gen")], /no such file: no\/such\/openapi\.yaml/, "in process"],
  ["generate: an unknown target", () => ["generate", "--targets", "typez", "--out", join(scratch, "gen")], /--targets takes .*; got typez/, "in process"],
  ["mock: a port in use", () => ["mock", "--port", String(busyPort)], /cannot listen on 127\.0\.0\.1 port \d+ \(--port\): EADDRINUSE: in use by another process; give another --port, or 0 for a free one$/, "in process"],
  ["mock --proxy: a port in use", () => ["mock", "--proxy", "http://127.0.0.1:1", "--port", String(busyPort)], /cannot listen on 127\.0\.0\.1 port \d+ \(--port\): EADDRINUSE: in use by another process; give another --port, or 0 for a free one$/, "in process"],
  ["mock --proxy: not an http URL", () => ["mock", "--proxy", "ftp://example.test"], /--proxy needs an http\(s\) URL/, "binary"],
  ["lint: a missing spec", () => ["lint", "--spec", "no/such/openapi.yaml"], /no such file: no\/such\/openapi\.yaml/, "binary"],
  ["validate: an unknown schema", () => ["validate", "--schema", "NoSuchSchema", "-"], /unknown schema "NoSuchSchema"/, "binary"],
  ["conformance: nothing to test", () => ["conformance"], /--base-url is required \(or use --reference\)/, "binary"],
  ["conformance: --out under a file", () => ["conformance", "--reference", "--reporter", "html", "--out", join(aFile, "report")], /cannot write the reports to .*: ENOTDIR/, "in process"],
  ["conformance: --out under /proc", () => ["conformance", "--reference", "--reporter", "html", "--out", "/proc/service-contract-test"], /cannot write the reports to \/proc\/service-contract-test: ENOENT/, "in process"],
  ["webhooks send: an unknown action", () => ["webhooks", "send", "issues", "--action", "nosuch", "--url", "http://127.0.0.1:1/hook", "--secret", "s"], /unknown action "nosuch" for issues; its actions: .*opened, closed.* \(--no-validate sends it anyway\)$/, "binary"],
  ["webhooks send: an action on an event that has none", () => ["webhooks", "send", "push", "--action", "closed", "--url", "http://127.0.0.1:1/hook", "--secret", "s"], /push payloads have no action, got --action closed/, "in process"],
  ["bench: an unknown section", () => ["bench", "nosuch"], /unknown bench section\(s\): nosuch/, "binary"],
];
if (badPassword) {
  CASES.push(["serve: a wrong PostgreSQL password", () => [...SERVE, "--database-url", badPassword], /cannot connect to postgres:\/\/[^:]+:\*\*\*@.*password authentication failed/, "in process"]);
}

describe.concurrent("one line and exit 2 for bad input", () => {
  it.each(CASES)("%s", async (_what, args, message, how) => {
    const line = await expectOneLine(args(), message, how);
    // A secret in a URL is never echoed.
    expect(line).not.toMatch(/secret|not-the-password/);
  }, TIMEOUT);
  if (!badPassword) it.skip("serve: a wrong PostgreSQL password — skipped: needs TEST_DATABASE_URL", () => {});
});

describe("a PGlite data folder held by a running serve", () => {
  const dataDir = join(scratch, "held");
  let serve: ServeChild;
  beforeAll(async () => {
    serve = await startServe({ dataDir }, {});
  }, ceiling(90_000));
  afterAll(async () => {
    await serve?.stop();
  });

  it.concurrent("simulate --data-dir on it exits 2 naming the pid and how to go through the server", async () => {
    const line = await expectOneLine(["simulate", "push", "--data-dir", dataDir], /is in use by serve/);
    expect(line).toContain(`pid ${serve.child.pid}`);
    expect(line).toContain(`simulate --url ${serve.api} --admin-token TOKEN`);
    // And it did nothing to the data: the running server shows no new push.
    const events = (await (await fetch(`${serve.api}/repos/octocat/hello-world/events`)).json()) as unknown[];
    expect(events).toEqual([]);
  }, TIMEOUT);

  // The binary's refusal on a held folder is the simulate case above; the same lock check in process.
  it.concurrent("a second serve on it exits 2 saying where the first one is", async () => {
    const line = await expectOneLine([...SERVE, "--data-dir", dataDir], /is in use by serve/, "in process");
    expect(line).toContain(`pid ${serve.child.pid}, API ${serve.api}`);
    expect(line).toContain("stop it first, or give this server another --data-dir");
  }, TIMEOUT);
});

describe("a stale lock", () => {
  it("left by a process that is gone is taken over, and released at exit", async () => {
    const dataDir = join(scratch, "stale");
    mkdirSync(dataDir);
    const gone = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => gone.on("exit", resolve));
    const lock = join(dataDir, LOCK_FILE);
    writeFileSync(lock, JSON.stringify({ pid: gone.pid, host: (await import("node:os")).hostname(), command: "serve" }));
    const r = await runCli(["simulate", "push", "--no-history", "--data-dir", dataDir]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split("\n")[0]!).type).toBe("PushEvent");
    expect(existsSync(lock), existsSync(lock) ? readFileSync(lock, "utf8") : "").toBe(false);
  }, ceiling(90_000));
});

describe("a failed command leaves nothing behind", () => {
  it("serve on an address that is not this machine's makes no data folder", async () => {
    const dataDir = join(scratch, "left-not-here");
    const r = await runCliInProcess([...SERVE, "--host", NOT_HERE, "--data-dir", dataDir]);
    expect(r.code, r.stderr).toBe(2);
    expect(existsSync(dataDir)).toBe(false);
  }, TIMEOUT);

  // An error in an option or an environment variable costs no database start: serve and simulate
  // check them all before the data folder is made (PGlite opens only in a folder made first).
  const OPTION_ERRORS: [string, () => string[], Record<string, string>, RegExp][] = [
    ["serve --rate-limit", () => [...SERVE, "--rate-limit", "lots"], {}, /--rate-limit takes two hourly limits/],
    ["serve $SERVICE_CONTRACT_RATE_LIMIT", () => [...SERVE], { SERVICE_CONTRACT_RATE_LIMIT: "0,0" }, /\$SERVICE_CONTRACT_RATE_LIMIT takes two hourly limits/],
    ["serve --failed-logins", () => [...SERVE, "--failed-logins", "0"], {}, /--failed-logins takes the failed logins allowed per login and hour/],
    ["serve $SERVICE_CONTRACT_FAILED_LOGINS", () => [...SERVE], { SERVICE_CONTRACT_FAILED_LOGINS: "many" }, /\$SERVICE_CONTRACT_FAILED_LOGINS takes the failed logins/],
    ["serve --hook-egress", () => [...SERVE, "--hook-egress", "everywhere"], {}, /hook egress must be one of local, public, got "everywhere"/],
    ["serve $SERVICE_CONTRACT_HOOK_EGRESS", () => [...SERVE], { SERVICE_CONTRACT_HOOK_EGRESS: "anywhere" }, /hook egress must be one of local, public, got "anywhere"/],
    ["serve $SERVICE_CONTRACT_DELIVERIES", () => [...SERVE], { SERVICE_CONTRACT_DELIVERIES: "{not json" }, /SERVICE_CONTRACT_DELIVERIES must be a JSON object/],
    ["serve --simulate with a short $SERVICE_CONTRACT_ADMIN_TOKEN", () => [...SERVE, "--simulate"], { SERVICE_CONTRACT_ADMIN_TOKEN: "short" }, /SERVICE_CONTRACT_ADMIN_TOKEN must be at least 16 characters/],
    ["serve --public-url", () => [...SERVE, "--public-url", "api.example.test"], {}, /--public-url must be an absolute http\(s\) URL/],
    ["serve $SERVICE_CONTRACT_TRUST_PROXY", () => [...SERVE], { SERVICE_CONTRACT_TRUST_PROXY: "nope" }, /\$SERVICE_CONTRACT_TRUST_PROXY: "nope" is not an IP address/],
    ["serve --seed with a typo", () => [...SERVE, "--seed", "demoo"], {}, /--seed demoo: no such file/],
    ["serve --auth-port in use", () => [...SERVE, "--auth-port", String(busyPort)], {}, /cannot listen on 127\.0\.0\.1 port \d+ \(--auth-port\): EADDRINUSE/],
    ["simulate $SERVICE_CONTRACT_PUBLIC_URL", () => ["simulate", "push"], { SERVICE_CONTRACT_PUBLIC_URL: "api.example.test" }, /\$SERVICE_CONTRACT_PUBLIC_URL must be an absolute http\(s\) URL/],
    ["simulate $SERVICE_CONTRACT_PUBLIC_AUTH_URL", () => ["simulate", "push"], { SERVICE_CONTRACT_PUBLIC_AUTH_URL: "ftp://example.test" }, /\$SERVICE_CONTRACT_PUBLIC_AUTH_URL must be an http or https URL/],
    ["simulate --seed with a typo", () => ["simulate", "push", "--seed", "demoo"], {}, /--seed demoo: no such file/],
    ["simulate --count", () => ["simulate", "push", "--count", "0"], {}, /--count must be 1\.\.1000/],
  ];
  it.each(OPTION_ERRORS)("%s: one line, exit 2, and no data folder made", async (what, args, env, message) => {
    const dataDir = join(scratch, `option-error-${what.replace(/[^a-z]+/gi, "-")}`);
    await expectOneLine([...args(), "--data-dir", dataDir], message, "in process", env);
    expect(existsSync(dataDir), `${what} made ${dataDir}`).toBe(false);
  }, TIMEOUT);

  it("generate with spec errors removes the --out folders it made", async () => {
    const spec = join(scratch, "no-operation-id.yaml");
    writeFileSync(spec, 'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths:\n  /a:\n    get:\n      responses:\n        "200": { description: ok }\n');
    const r = await runCliInProcess(["generate", "--spec", spec, "--targets", "types", "--out", join(scratch, "gen-made/deeper")]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("operationId is required");
    expect(existsSync(join(scratch, "gen-made"))).toBe(false);
  }, TIMEOUT);

  it("conformance against a target that does not answer removes the --out folder it made", async () => {
    const out = join(scratch, "report-unreachable/inner");
    const r = await runCliInProcess(["conformance", "--base-url", "http://127.0.0.1:1", "--auth-url", "http://127.0.0.1:1", "--profile", "conformance/profiles/example.yaml", "--reporter", "html", "--out", out], {
      // The example profile reads its secrets from these.
      env: Object.fromEntries(["CLIENT_SECRET", "OUTSIDER_PASSWORD", "OUTSIDER_TOKEN", "OWNER_PASSWORD", "OWNER_TOKEN"].map((v) => [`CONFORMANCE_${v}`, "not-used"])),
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/the target does not answer/);
    expect(existsSync(join(scratch, "report-unreachable"))).toBe(false);
  }, TIMEOUT);

  it("conformance interrupted by Ctrl-C removes the --out folder it made, and exits 130", async () => {
    const out = join(scratch, "report-interrupted/inner");
    const child = spawn(process.execPath, [cliBin, "conformance", "--reference", "--reporter", "console,html", "--out", out], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    // Interrupted once the run is under way: the reference is up and the first case has reported.
    let stdout = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        stdout += d;
        if (/\[\s*1\/\d+\]/.test(stdout)) resolve();
      });
      void exited.then((code) => reject(new Error(`conformance exited (${code}) before its first case:\n${stdout}`)));
    });
    expect(existsSync(out)).toBe(true);
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(existsSync(join(scratch, "report-interrupted"))).toBe(false);
  }, TIMEOUT);

  it("bench deliveries with a TEST_DATABASE_URL nobody answers: one line, exit 2, before any measuring", async () => {
    const r = await runCliInProcess(["bench", "deliveries"], { env: { TEST_DATABASE_URL: "postgres://u:secret@127.0.0.1:1/postgres" } });
    expect(r.code, r.stderr).toBe(2);
    const lines = r.stderr.split("\n").filter((l) => l.trim() !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^service-contract: TEST_DATABASE_URL does not connect \(postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/postgres: .*ECONNREFUSED.*\): give an admin URL of a running PostgreSQL, or unset it to measure PGlite only$/);
  }, TIMEOUT);
});
