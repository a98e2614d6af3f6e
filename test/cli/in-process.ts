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

/** A command still running in this process (startCliInProcess): what it wrote so far, and its end. */
export interface RunningCli {
  stdout(): string;
  stderr(): string;
  /** Resolves with the first line the command writes to stdout (serve's ready line). */
  firstLine: Promise<string>;
  /**
   * What a SIGTERM or SIGINT to the binary does: the handlers the command registered on the process
   * since it started are called, the signal itself is never sent (it would reach the test worker).
   * The command's handlers for the other signal are removed, so none stays on the worker.
   */
  signal(name: "SIGTERM" | "SIGINT"): void;
  /** The exit code (main's return) and everything written, once the command has ended. */
  done: Promise<CliResult>;
}

const SIGNALS = ["SIGTERM", "SIGINT"] as const;
type Signal = (typeof SIGNALS)[number];
type Listener = (signal: Signal) => void;

/**
 * The CLI's `main` run inside this test process, as runCliInProcess, for a command that keeps
 * running until it is signalled (`serve`): a server's start in the worker instead of a child
 * process, for the tests whose subject is what the server does, not what its process does (the
 * binary's own ready line, signals, exit codes and locks are proven by child processes elsewhere).
 * It queues behind and ahead of every other in-process run, so an in-process run that a test
 * awaits while this one is running would never start: use the binary (runCli) beside it. The
 * working folder, the environment (`env`) and the process's stdout and stderr stay the command's
 * until it ends. A database it makes takes the key this process seals secrets with
 * (hooks/secret-box.ts): give it a new folder, not one a child process made.
 */
export function startCliInProcess(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): RunningCli {
  const out = { text: "" };
  const err = { text: "" };
  /** The signal handlers the command added to the process, once it is running. */
  let added: ((signal: Signal) => Listener[]) | undefined;
  let lineFound: (line: string) => void = () => {};
  let lineMissing: (error: Error) => void = () => {};
  const firstLine = new Promise<string>((resolve, reject) => {
    lineFound = resolve;
    lineMissing = reject;
  });
  firstLine.catch(() => undefined);
  const stdoutSink = {
    get text() {
      return out.text;
    },
    set text(value: string) {
      out.text = value;
      const end = value.indexOf("\n");
      if (end >= 0) lineFound(value.slice(0, end));
    },
  };
  const done = last.then(async () => {
    // Loaded before the handlers are counted: only what the command adds is its own.
    await import("../../cli/main.ts");
    const before = new Map(SIGNALS.map((s) => [s, process.rawListeners(s)]));
    added = (signal) => process.rawListeners(signal).filter((l) => !before.get(signal)!.includes(l)) as Listener[];
    try {
      return await runMain(args, options, stdoutSink, err);
    } finally {
      // None of its handlers stays on the worker (a start that failed never had a signal).
      for (const s of SIGNALS) for (const l of added(s)) process.removeListener(s, l);
      lineMissing(new Error(`the command ended before it wrote a line on stdout; stderr:\n${err.text}`));
    }
  });
  last = done.catch(() => undefined);
  return {
    stdout: () => out.text,
    stderr: () => err.text,
    firstLine,
    signal(name) {
      if (!added) throw new Error("the command has not started");
      const mine = added(name);
      if (mine.length === 0) throw new Error(`the command has no ${name} handler`);
      for (const other of SIGNALS) if (other !== name) for (const l of added(other)) process.removeListener(other, l);
      // The raw listeners: a once-handler removes itself as it runs, as for a real signal.
      for (const l of mine) l(name);
    },
    done,
  };
}

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
  const run = last.then(() => runMain(args, options, { text: "" }, { text: "" }));
  last = run.catch(() => undefined);
  return run;
}

/**
 * `main(args)` with the working folder, the environment (`env`) and the process's stdout and
 * stderr the command's while it runs (written into `out` and `err`), all put back when it ends.
 */
async function runMain(args: string[], options: { cwd?: string; env?: Record<string, string> }, out: { text: string }, err: { text: string }): Promise<CliResult> {
  const { main } = await import("../../cli/main.ts");
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
}
