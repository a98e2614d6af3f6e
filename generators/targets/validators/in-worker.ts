/**
 * Starts worker.ts, so that it loads Ajv and the target's modules while the spec is validated,
 * and takes the model when there is one. In a clone the worker is TypeScript: the worker thread
 * does not inherit the main thread's tsx hooks (module.register), so it registers tsx itself
 * before it imports the target; from the built package it is plain JavaScript.
 */
import { Worker } from "node:worker_threads";
import { SpecError, type Problem } from "../../problems.ts";
import type { Model } from "../../model.ts";
import type { GeneratedFile } from "../../output.ts";

export interface ValidatorsWorker {
  /** Hands the model over; resolves with the target's files, or rejects as the target would have thrown. */
  run(model: Model, source: string): Promise<GeneratedFile[]>;
  /** Ends the worker when its answer is no longer wanted (generate failed before it). */
  stop(): void;
}

type Answer = { files: GeneratedFile[] } | { problems: Problem[] } | { error: string };

// A worker takes the process's Node options, but not every one is a worker's: `--input-type`
// (a program given with -e) makes its module loader refuse the worker's own file.
const workerOptions = () => ({ execArgv: process.execArgv.filter((option) => !option.startsWith("--input-type")) });

export function startValidatorsWorker(): ValidatorsWorker {
  const typescript = import.meta.url.endsWith(".ts");
  const entry = new URL(typescript ? "./worker.ts" : "./worker.js", import.meta.url);
  const worker = typescript
    ? new Worker(
        `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))})` +
          `.then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`,
        { eval: true, ...workerOptions() },
      )
    : new Worker(entry, workerOptions());
  const answer = new Promise<Answer>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the validators worker exited (${code}) without an answer`)));
  });
  // A rejection nobody awaits yet (the model is not built) must not end the process: run() says it.
  answer.catch(() => undefined);
  return {
    async run(model, source) {
      worker.postMessage({ model, source });
      const result = await answer;
      if ("files" in result) return result.files;
      if ("problems" in result) throw new SpecError(result.problems);
      throw new Error(`validators target: ${result.error}`);
    },
    stop: () => void worker.terminate(),
  };
}
