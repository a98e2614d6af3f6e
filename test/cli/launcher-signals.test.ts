/**
 * Servers that die with their launcher: `npm start`, `npx service-contract serve` and `npx
 * service-contract mock --proxy` started as a user starts them, then SIGTERM or SIGINT sent to the
 * launcher (npm's process: what `kill`, a supervisor or an IDE's stop button reaches). Nothing of
 * theirs may keep running, and serve's data folder must be closed and unlocked (its lock file,
 * which names the server's PID, removed by the clean shutdown; a kill would leave it behind).
 * Each waits for conditions, with generous ceilings: a busy machine makes them slow, not wrong.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, test } from "vitest";
import { repoRoot } from "../repo-root.ts";
import { descendants, isRunning, type ProcInfo } from "../processes/proc.ts";

const CEILING_MS = 180_000;
let scratch: string | undefined;

afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

interface Launched {
  launcher: ChildProcess;
  ready: Record<string, unknown>;
  exited: Promise<number | null>;
  output(): string;
}

/** Starts `npm …`/`npx …` in the repository and resolves on the command's JSON ready line. */
async function launch(command: "npm" | "npx", args: string[]): Promise<Launched> {
  const launcher = spawn(command, args, {
    cwd: repoRoot,
    env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false" },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, as a terminal gives a command: Ctrl-C signals the whole group.
    detached: true,
  });
  let output = "";
  launcher.stderr!.on("data", (d: Buffer) => (output += d));
  const exited = new Promise<number | null>((resolve) => launcher.on("exit", (code, signal) => resolve(code ?? (signal ? -1 : null))));
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} ${args.join(" ")}: no ready line in ${CEILING_MS} ms:\n${output}`)), CEILING_MS);
    createInterface({ input: launcher.stdout! }).on("line", (line) => {
      output += line + "\n";
      if (!line.startsWith("{")) return; // npm's "> service-contract@… start" banner
      clearTimeout(timer);
      resolve(JSON.parse(line) as Record<string, unknown>);
    });
    void exited.then((code) => reject(new Error(`${command} exited (${code}) before the ready line:\n${output}`)));
  });
  return { launcher, ready, exited, output: () => output };
}

async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + CEILING_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`still not true after ${CEILING_MS} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(10_000) });
    return false;
  } catch (error) {
    return ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code === "ECONNREFUSED";
  }
}

/**
 * Sends the signal to the launcher (or, for Ctrl-C, to its process group, as a terminal does),
 * then waits until the launcher and everything under it are gone.
 */
async function stopAndWait(run: Launched, how: How, tree: ProcInfo[]): Promise<void> {
  if (how === "Ctrl-C") process.kill(-run.launcher.pid!, "SIGINT");
  else run.launcher.kill(how);
  await run.exited;
  for (const p of tree) await until(`${p.pid} exited after ${how} to its launcher`, () => !isRunning(p.pid, p.start));
}

/**
 * SIGINT sent to npx's process alone never reaches the server: npm passes it to the `sh -c` it
 * runs the command in, and the shell holds it until its command exits (POSIX shells do). So for
 * npx the SIGINT case is the one users send, Ctrl-C in the terminal, which signals the group.
 */
type How = "SIGTERM" | "SIGINT" | "Ctrl-C";

const serveArgs = (dataDir: string): string[] => ["--port", "0", "--auth-port", "0", "--seed", "none", "--quiet", "--data-dir", dataDir];

describe("a server started through npm or npx", () => {
  for (const [launcher, args, how] of [
    ["npm", (d: string) => ["start", "--", ...serveArgs(d)], "SIGTERM"],
    ["npm", (d: string) => ["start", "--", ...serveArgs(d)], "SIGINT"],
    ["npx", (d: string) => ["service-contract", "serve", ...serveArgs(d)], "SIGTERM"],
    ["npx", (d: string) => ["service-contract", "serve", ...serveArgs(d)], "Ctrl-C"],
  ] as const) {
    test(`${launcher} ${launcher === "npm" ? "start" : "service-contract serve"}: ${how} to ${launcher} closes the server and unlocks its data folder`, async () => {
      scratch = mkdtempSync(join(tmpdir(), "sc-launcher-"));
      const dataDir = join(scratch, "data");
      const run = await launch(launcher, args(dataDir));
      const lockFile = join(dataDir, "service-contract.lock");
      const serverPid = (JSON.parse(readFileSync(lockFile, "utf8")) as { pid: number }).pid;
      const tree = descendants(run.launcher.pid!);
      expect(tree.map((p) => p.pid)).toContain(serverPid);

      await stopAndWait(run, how, tree);
      expect(existsSync(lockFile), "the lock file is left: the server did not close its data folder").toBe(false);
      expect(await refused(String(run.ready.api))).toBe(true);
      expect(await refused(String(run.ready.auth))).toBe(true);
      // npm start runs the server in npm's place (exec), so npm reports the server's clean exit.
      if (launcher === "npm") expect(await run.exited).toBe(0);
    }, 2 * CEILING_MS);
  }

  test("npx service-contract mock --proxy: SIGTERM to npx stops the proxy and Prism", async () => {
    const run = await launch("npx", ["service-contract", "mock", "--port", "0", "--proxy", "http://127.0.0.1:9"]);
    expect(run.ready.proxy).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const tree = descendants(run.launcher.pid!);
    expect(tree.some((p) => /prism/.test(readFileSync(`/proc/${p.pid}/cmdline`, "utf8")))).toBe(true);

    await stopAndWait(run, "SIGTERM", tree);
    expect(await refused(String(run.ready.proxy))).toBe(true);
  }, 2 * CEILING_MS);
});
