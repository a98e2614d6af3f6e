/**
 * Runs the real `service-contract` binary as a child process, the way users and CI run it: by
 * default compiled, as the installed package runs it (compiled-cli.ts, which builds dist/ once per
 * test run before this module finishes loading); `runLauncher` and `launcherBin` run the clone's
 * launcher, which compiles the TypeScript sources through tsx, for the tests about that launcher.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "../repo-root.ts";
import { compiledBin } from "./compiled-cli.ts";

export { repoRoot };
/** The compiled command (the package's bin beside this checkout's dist/, built for this run). */
export const cliBin = compiledBin;
/** The clone's launcher: `npx service-contract` and `npm start` in a clone run this, through tsx. */
export const launcherBin = join(repoRoot, "bin/service-contract.js");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  cwd?: string;
  input?: string;
  env?: Record<string, string>;
}

/** The compiled command, as a user who installed the package runs it. */
export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return run(cliBin, args, options);
}

/** The clone's launcher (bin/service-contract.js through tsx), for what only a clone has or does. */
export function runLauncher(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return run(launcherBin, args, options);
}

function run(bin: string, args: string[], options: RunOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env = options.env ? { ...process.env, ...options.env } : process.env;
    const child = spawn(process.execPath, [bin, ...args], { cwd: options.cwd ?? repoRoot, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}

/** The CLI's `main` in this test process (in-process.ts), kept here for the files that import it from here. */
export { runCliInProcess } from "./in-process.ts";
