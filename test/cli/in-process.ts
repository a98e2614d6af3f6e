/**
 * The CLI run inside the test process, without a child: its own module so that a file that needs
 * only this does not load run-cli.ts, which builds the compiled command first (compiled-cli.ts).
 */
import type { CliResult } from "./run-cli.ts";
import { repoRoot } from "../repo-root.ts";

type Write = typeof process.stdout.write;

/** Replaces a stream's write with one that appends to `sink`, and returns the original. */
function capture(stream: NodeJS.WriteStream, sink: { text: string }): Write {
  const original = stream.write;
  stream.write = ((chunk: string | Uint8Array, encoding?: BufferEncoding | ((error?: Error | null) => void), callback?: (error?: Error | null) => void) => {
    sink.text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString(typeof encoding === "string" ? encoding : "utf8");
    const done = typeof encoding === "function" ? encoding : callback;
    if (done) queueMicrotask(() => done(null));
    return true;
  }) as Write;
  return original;
}

let last: Promise<unknown> = Promise.resolve();

/**
 * The CLI's `main` run inside this test process: what `bin/service-contract.js` calls, so the exit
 * code is main's return (the binary's `process.exitCode`) and stdout and stderr are the bytes the
 * commands and commander write to the process's streams. Each child start costs ~0.25 s of CPU (compiled) and
 * every `generate` child ~3 s more to load its libraries; here they load once per test file. For
 * cases that repeat a code path a real `runCli` spawn in the same file already covers (the binary
 * itself stays tested there). No standard input (commands read fd 0 directly), and calls run one
 * at a time: each changes the working directory and the process's streams while it runs. Not for
 * the default --spec from another folder: cli/options.ts names it from the working folder the
 * process started in (this one's is the repository, as for runCli without a cwd). `env` is set
 * for the call and restored after it.
 */
export function runCliInProcess(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  const run = last.then(async () => {
    const { main } = await import("../../cli/main.ts");
    const out = { text: "" };
    const err = { text: "" };
    const cwd = process.cwd();
    const env = options.env ?? {};
    const savedEnv = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    const stdoutWrite = capture(process.stdout, out);
    const stderrWrite = capture(process.stderr, err);
    try {
      process.chdir(options.cwd ?? repoRoot);
      const code = await main(args);
      return { code, stdout: out.text, stderr: err.text };
    } finally {
      process.stdout.write = stdoutWrite;
      process.stderr.write = stderrWrite;
      process.chdir(cwd);
      for (const [k, v] of Object.entries(savedEnv)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
  last = run.catch(() => undefined);
  return run;
}
