/**
 * The CLI's `main` called inside the test process, for the many usage-error cases of a command
 * whose exit-2 contract one real-binary spawn per file already proves: the binary only sets
 * `process.exitCode` to what `main` returns, and every message goes through
 * `process.stdout.write` / `process.stderr.write`, which are captured here, so the code and the
 * text are exactly what the binary prints. Calls run one at a time (they swap globals: the
 * streams' write and, for a case that needs it, environment variables). Saves the ~1 s of CPU a
 * spawn through tsx costs per case.
 */
import type { CliResult } from "./run-cli.ts";

let queue: Promise<unknown> = Promise.resolve();

export function mainInProcess(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const run = queue.then(() => once(args, env));
  queue = run.catch(() => undefined);
  return run;
}

async function once(args: string[], env: Record<string, string>): Promise<CliResult> {
  const { main } = await import("../../cli/main.ts");
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const out = { stdout: "", stderr: "" };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  const capture = (key: "stdout" | "stderr") =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      out[key] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      const callback = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = capture("stdout");
  process.stderr.write = capture("stderr");
  try {
    const code = await main(args);
    return { code, ...out };
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
