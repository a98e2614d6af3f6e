/**
 * `service-contract serve` as users run it: one JSON line with both URLs on stdout when ready
 * (and nothing else on stdout), a working API host, a clean exit 0 on SIGTERM that leaves the
 * embedded database ready for the next start with its data, `DATABASE_URL` read when
 * `--database-url` is not given, `--seed none` and `--seed FILE`, and exit 2 for usage errors
 * (bad port, bad seed file, a database URL that is not PostgreSQL).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { cliBin, repoRoot, runCli, runCliInProcess } from "../cli/run-cli.ts";
import { startCliInProcess } from "../cli/in-process.ts";
import { adminUrl, describePostgres, scratchDatabase } from "./postgres-db.ts";
import { ceiling } from "../ceilings.ts";

const scratch = mkdtempSync(join(tmpdir(), "serve-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Served {
  api: string;
  auth: string;
  /** In the ready line only with public URLs. */
  listening?: { api: string; auth: string };
  stderr(): string;
  /** SIGTERM; resolves with the exit code and everything written to stdout. */
  stop(): Promise<{ code: number | null; stdout: string }>;
}

/** `serve` as a child process, resolved once its ready line is out. */
async function serve(args: string[], env: Record<string, string | undefined> = {}): Promise<Served> {
  const child = spawn(process.execPath, [cliBin, "serve", "--port", "0", "--auth-port", "0", ...args], { cwd: repoRoot, env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d));
  child.stderr.on("data", (d: Buffer) => (stderr += d));
  const exited = new Promise<number | null>((res) => child.on("exit", res));
  const ready = await new Promise<Pick<Served, "api" | "auth" | "listening">>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line; stderr:\n${stderr}`)), ceiling(45_000));
    createInterface({ input: child.stdout }).once("line", (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as Pick<Served, "api" | "auth" | "listening">);
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before it was ready; stderr:\n${stderr}`)));
  });
  return {
    ...ready,
    stderr: () => stderr,
    async stop() {
      child.kill("SIGTERM");
      const code = await exited;
      return { code, stdout };
    },
  };
}

/**
 * `serve` through the CLI's `main` in this process (test/cli/in-process.ts), resolved once its
 * ready line is out; stop() runs its SIGTERM handler and resolves with main's exit code. For the
 * starts whose subject is the server's data (the seed, the database it reads), not its process:
 * the child above proves the ready line, SIGTERM and exit 0 of the binary itself. One at a time.
 */
async function serveInProcess(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const run = startCliInProcess(["serve", "--port", "0", "--auth-port", "0", ...args], { env });
  const ready = JSON.parse(await run.firstLine) as Pick<Served, "api" | "auth" | "listening">;
  return {
    ...ready,
    stderr: run.stderr,
    async stop() {
      run.signal("SIGTERM");
      const { code, stdout } = await run.done;
      return { code, stdout };
    },
  };
}

/** The CLI with extra environment variables, to its exit. */
function runWithEnv(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliBin, ...args], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`;
const OCTOCAT = basic("octocat", "octocat-demo-password");

describe("service-contract serve", () => {
  // One data folder through a restart: the first start is the default one but for the demo's
  // history (demo seed, the guide on stderr; --no-history spares ~3.7 s of CPU: a first serve
  // recording the history is test/cli/seed-parity.test.ts's subject), the second the same folder
  // behind a public URL. Each test below asserts on its own stage; they share the two processes
  // to spare two more starts.
  const dataDir = join(scratch, "restart");
  let token = "";
  let second: Served | undefined;
  afterAll(async () => void (await second?.stop()));

  it("prints its URLs when ready, serves, and exits 0 on SIGTERM", async () => {
    const served = await serve(["--data-dir", dataDir, "--no-history"]);
    expect(served.api).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(served.auth).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${served.api}/no/such/path`);
    expect(res.status).toBe(404);
    await res.arrayBuffer();
    const page = await fetch(`${served.auth}/login/oauth/authorize?client_id=unknown-client`);
    expect(page.status).toBe(404);
    await page.arrayBuffer();
    expect(served.stderr()).toContain("octocat-demo-password");
    expect(served.stderr()).toContain("/login/oauth/authorize?client_id=demo-client-id-0001");
    // Data for the restart below.
    const created = await fetch(`${served.api}/authorizations`, {
      method: "POST",
      headers: { authorization: OCTOCAT, "content-type": "application/json" },
      body: JSON.stringify({ note: "survives a restart", scopes: ["repo"] }),
    });
    expect(created.status).toBe(201);
    ({ token } = (await created.json()) as { token: string });
    const { code, stdout } = await served.stop();
    expect(code).toBe(0);
    // One line of JSON with exactly the two URLs, and nothing else on stdout.
    expect(stdout.split("\n")).toEqual([JSON.stringify({ api: served.api, auth: served.auth }), ""]);
  }, ceiling(90_000));

  it("keeps the embedded database's data across a SIGTERM and a restart on the same --data-dir", async () => {
    expect(token).not.toBe("");
    // The restart is also the --public-url start checked by the next test.
    second = await serve(["--data-dir", dataDir, "--no-history", "--public-url", "https://API.example.test:8443/"], { SERVICE_CONTRACT_PUBLIC_AUTH_URL: "https://example.test" });
    // The demo seed is not loaded again into a database that has data; the token still works.
    const res = await fetch(`${second.listening!.api}/users/octocat/events`, { headers: { authorization: `token ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-oauth-scopes")).toBe("repo");
    await res.arrayBuffer();
    const list = await fetch(`${second.listening!.api}/authorizations`, { headers: { authorization: OCTOCAT } });
    expect(((await list.json()) as { note: string }[]).map((a) => a.note)).toEqual(["survives a restart"]);
  }, ceiling(90_000));

  it("with --public-url and $SERVICE_CONTRACT_PUBLIC_AUTH_URL: prints them and where it listens, and writes them into its answers", async () => {
    const served = second!;
    try {
      expect([served.api, served.auth]).toEqual(["https://api.example.test:8443", "https://example.test"]);
      expect(served.listening!.api).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const created = await fetch(`${served.listening!.api}/authorizations`, {
        method: "POST",
        headers: { authorization: OCTOCAT, "content-type": "application/json" },
        body: JSON.stringify({ note: "behind a proxy", scopes: ["repo"] }),
      });
      expect(created.status).toBe(201);
      const body = (await created.json()) as { id: number; url: string };
      expect(created.headers.get("location")).toBe(`https://api.example.test:8443/authorizations/${body.id}`);
      expect(body.url).toBe(created.headers.get("location"));
    } finally {
      second = undefined;
      expect((await served.stop()).code).toBe(0);
    }
    // The guide (written after the ready line, so read once the process is gone) names them too.
    expect(served.stderr()).toContain("open https://example.test/login/oauth/authorize?client_id=demo-client-id-0001");
  }, ceiling(60_000));

  it("loads --seed FILE into an empty database, and nothing with --seed none", async () => {
    const fixture = join(scratch, "fixture.json");
    writeFileSync(fixture, JSON.stringify({ users: [{ login: "fixture-user", password: "fixture-password" }] }));
    // Two folders, one after the other, in this process: the seed is what the server loads, which
    // the binary passes to it as given (its own start and stop are the children above).
    const fromFile = await serveInProcess(["--data-dir", join(scratch, "from-file"), "--seed", fixture, "--quiet"]);
    let fromFileCode: number | null;
    try {
      const ok = await fetch(`${fromFile.api}/authorizations`, { headers: { authorization: basic("fixture-user", "fixture-password") } });
      expect(ok.status).toBe(200);
      await ok.arrayBuffer();
      const demo = await fetch(`${fromFile.api}/authorizations`, { headers: { authorization: OCTOCAT } });
      expect(demo.status).toBe(401);
      await demo.arrayBuffer();
    } finally {
      fromFileCode = (await fromFile.stop()).code;
    }
    const empty = await serveInProcess(["--data-dir", join(scratch, "none"), "--seed", "none", "--quiet"]);
    try {
      const res = await fetch(`${empty.api}/authorizations`, { headers: { authorization: OCTOCAT } });
      expect(res.status).toBe(401);
      await res.arrayBuffer();
      const app = await fetch(`${empty.auth}/login/oauth/authorize?client_id=demo-client-id-0001`);
      expect(app.status).toBe(404);
      await app.arrayBuffer();
    } finally {
      expect([fromFileCode, (await empty.stop()).code]).toEqual([0, 0]);
    }
  }, ceiling(90_000));

  describePostgres("on PostgreSQL", () => {
    const db = scratchDatabase("sc_serve");
    afterAll(() => db.drop(), ceiling(30_000));

    it("reads DATABASE_URL when --database-url is not given (no --data-dir folder is made)", async () => {
      await db.create();
      const dataDir = join(scratch, "unused-pglite");
      // In this process (the database it reads is the subject): a new database takes the key the
      // process seals secrets with, and SERVICE_CONTRACT_SECRET_KEY is unset for the start.
      const served = await serveInProcess(["--data-dir", dataDir, "--no-history", "--quiet"], { DATABASE_URL: db.url, SERVICE_CONTRACT_SECRET_KEY: "" });
      // Secrets at rest are sealed with a key in the same database: one warning line says so.
      expect(served.stderr()).toMatch(/^warning: SERVICE_CONTRACT_SECRET_KEY is not set: .*same database\n$/m);
      try {
        const res = await fetch(`${served.api}/authorizations`, { headers: { authorization: OCTOCAT } });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      } finally {
        expect((await served.stop()).code).toBe(0);
      }
      expect(existsSync(dataDir)).toBe(false);
    }, ceiling(60_000));
  });

  // The exit-2 contract through the real binary once with an argument and once with an
  // environment variable; the other cases of the same code path call `main` in process.
  it.each([
    [["serve", "--port", "70000"], {}, /--port must be 0..65535/],
    [["serve", "--port", "0", "--auth-port", "0"], { DATABASE_URL: "mysql://nope" }, /postgres:\/\//],
  ])("exits 2 on %j %j (the binary)", async (args, env, message) => {
    const result = Object.keys(env).length === 0 ? await runCli(args) : await runWithEnv(args, env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  }, ceiling(60_000));

  it.each([
    [["serve", "--port", "0", "--auth-port", "0", "--seed", "/no/such/fixture.yaml", "--data-dir", join(scratch, "x")], {}, /--seed \/no\/such\/fixture.yaml: no such file/],
    [["serve", "--database-url", "mysql://nope"], {}, /postgres:\/\//],
    [["serve", "--public-url", "api.example.test"], {}, /^[^\n]*--public-url must be an absolute http\(s\) URL, got "api.example.test"\n$/],
    [["serve", "--public-url", "https://api.example.test/v3"], {}, /--public-url must be an origin .*no path/],
    [["serve", "--public-auth-url", "ftp://example.test"], {}, /--public-auth-url must be an http or https URL/],
    [["serve", "--port", "0", "--auth-port", "0"], { SERVICE_CONTRACT_PUBLIC_URL: "https://user:pw@api.example.test" }, /\$SERVICE_CONTRACT_PUBLIC_URL must not carry user info/],
    [["serve", "--trust-proxy", "10.0.0.0/8,proxy.internal"], {}, /^[^\n]*--trust-proxy: "proxy.internal" is not an IP address/],
    [["serve", "--port", "0", "--auth-port", "0"], { SERVICE_CONTRACT_TRUST_PROXY: "nope" }, /\$SERVICE_CONTRACT_TRUST_PROXY: "nope" is not an IP address/],
    [["serve", "--hook-egress", "everywhere", "--port", "0", "--auth-port", "0"], {}, /^service-contract: hook egress must be one of local, public, got "everywhere"\n$/],
    [["serve", "--port", "0", "--auth-port", "0"], { SERVICE_CONTRACT_HOOK_EGRESS: "anywhere" }, /hook egress must be one of local, public, got "anywhere"/],
  ])("exits 2 on %j %j", async (args, env, message) => {
    const result = await runCliInProcess(args, { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  }, ceiling(60_000));
});
