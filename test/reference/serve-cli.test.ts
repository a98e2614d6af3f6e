/**
 * `service-contract serve` as users run it: a ready line with both URLs, a working API host, a
 * clean exit on SIGTERM, and exit 2 for usage errors (bad port, bad seed file).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { cliBin, repoRoot, runCli } from "../cli/run-cli.ts";

const scratch = mkdtempSync(join(tmpdir(), "serve-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("service-contract serve", () => {
  it("prints its URLs when ready, serves, and exits 0 on SIGTERM", async () => {
    const child = spawn(process.execPath, [cliBin, "serve", "--port", "0", "--auth-port", "0", "--data-dir", join(scratch, "db")], { cwd: repoRoot });
    const exited = new Promise<number | null>((res) => child.on("exit", res));
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    const ready = await new Promise<{ api: string; auth: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready line; stderr:\n${stderr}`)), 45_000);
      createInterface({ input: child.stdout }).once("line", (line) => {
        clearTimeout(timer);
        resolve(JSON.parse(line) as { api: string; auth: string });
      });
    });
    expect(ready.api).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.auth).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${ready.api}/no/such/path`);
    expect(res.status).toBe(404);
    const page = await fetch(`${ready.auth}/login/oauth/authorize?client_id=unknown-client`);
    expect(page.status).toBeLessThan(500);
    await page.arrayBuffer();
    expect(stderr).toContain("octocat-demo-password");
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 60_000);

  it.each([
    [["serve", "--port", "70000"], /--port must be 0..65535/],
    [["serve", "--port", "0", "--auth-port", "0", "--seed", "/no/such/fixture.yaml", "--data-dir", join(scratch, "x")], /cannot read seed fixture/],
    [["serve", "--database-url", "mysql://nope"], /postgres:\/\//],
  ])("exits 2 on %j", async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  }, 60_000);
});
