/**
 * Issue 34, point 1, as a user's CI meets it: the whole suite, through the real binary, against a
 * target that answers every request with a gzip bomb (16 GiB of zeros from 16 MB), a gibibyte, an
 * endless chunked body, or 40 MB. The process's peak memory (GNU time's maximum resident set
 * size) stays under 600 MB, the run ends with its verdict (never killed, never a crash), and all
 * four reports are written, each small: failures keep excerpts, not answers.
 * Before the byte limit: 3.7 GB for the bomb, 2.3 GB for the gibibyte, and no report at all with
 * 40 MB answers (heap exhaustion, exit 134).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliBin, repoRoot } from "../cli/run-cli.ts";
import { ceiling } from "../ceilings.ts";
import { startHostileServer, type Abuse, type HostileServer } from "./hostile-servers.ts";

const dir = mkdtempSync(join(tmpdir(), "sc-bounded-memory-"));
const PROFILE = join(dir, "profile.yaml");
writeFileSync(
  PROFILE,
  [
    "users:",
    "  - { login: octocat, password: 'pa55-w0rd-secret', token: '0123456789abcdef0123456789abcdef01234567' }",
    "  - { login: hubot, password: 'hubot-pa55-secret', token: 'fedcba9876543210fedcba9876543210fedcba98' }",
    "app: { clientId: cid-123456, clientSecret: client-secret-abcdef-123456, callbackUrl: 'http://127.0.0.1:9/cb' }",
    "repos: { public: octocat/hello-world, private: octocat/secret-repo }",
    "org: octo-org",
    "issue: 1",
    "",
  ].join("\n"),
);

const LIMIT_KB = 600 * 1024;
const servers: HostileServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

interface Measured {
  code: number | null;
  stdout: string;
  stderr: string;
  maxRssKb: number;
}

/** The compiled binary under GNU time: its exit code, output, and peak resident memory. */
function measured(args: string[]): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn("/usr/bin/time", ["-f", "MAXRSS %M", process.execPath, cliBin, ...args], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const m = /MAXRSS (\d+)\s*$/.exec(stderr);
      resolve({ code, stdout, stderr: stderr.replace(/(Command exited with non-zero status \d+\n)?MAXRSS \d+\s*$/, ""), maxRssKb: m ? Number(m[1]) : NaN });
    });
  });
}

describe.sequential("a whole run against a target that answers every request with too much", () => {
  it.each(["gzip-bomb", "gibibyte", "endless-chunked", "forty-mb"] as const satisfies readonly Abuse[])(
    "%s: peak memory under 600 MB, the verdict given, all four reports written and small",
    async (abuse) => {
      const server = await startHostileServer(abuse);
      servers.push(server);
      const out = join(dir, abuse);
      const result = await measured(["conformance", "--base-url", server.url, "--auth-url", server.url, "--profile", PROFILE, "--reporter", "console,junit,json,html", "--out", out]);
      console.log(`${abuse}: peak RSS ${Math.round(result.maxRssKb / 1024)} MB, ${server.requests()} requests`);
      expect(result.stderr).toBe("");
      // Seed rules fail (1), never a crash (4, 134) or a kill.
      expect(result.code).toBe(1);
      expect(result.maxRssKb).toBeLessThan(LIMIT_KB);
      expect(result.stdout).toMatch(/\n\d+ cases: 0 passed, \d+ failed, \d+ skipped/);
      expect(result.stdout).toMatch(/is larger than the suite reads \(8 MB, --max-response-bytes\)/);
      for (const file of ["junit.xml", "results.json", "report.html"]) {
        const path = join(out, file);
        expect(existsSync(path), path).toBe(true);
        expect(statSync(path).size, path).toBeLessThan(2 * 1024 * 1024);
      }
      // The console report too: the summary is its last line.
      expect(result.stdout.length).toBeLessThan(2 * 1024 * 1024);
    },
    ceiling(120_000),
  );
});
