/** Runs the real `service-contract` binary as a child process, the way users and CI run it. */
import { spawn } from "node:child_process";
import { join } from "node:path";

export const repoRoot = join(import.meta.dirname, "../..");
export const cliBin = join(repoRoot, "bin/service-contract.js");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { cwd?: string; input?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliBin, ...args], { cwd: options.cwd ?? repoRoot, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}
