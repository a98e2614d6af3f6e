/**
 * The validators target in a worker thread (started by in-worker.ts): Ajv compiling the contract
 * four times is a third of `generate`'s CPU and needs nothing the other targets make, so on a
 * machine with a second core it runs beside them. It receives the model once and answers with the
 * files, or with the problems of a SpecError (rebuilt as one on the other side), or an error.
 */
import { parentPort } from "node:worker_threads";
import { SpecError } from "../../problems.ts";
import type { Model } from "../../model.ts";
import { validatorsTarget } from "./index.ts";

parentPort!.once("message", ({ model, source }: { model: Model; source: string }) => {
  try {
    parentPort!.postMessage({ files: validatorsTarget(model, source) });
  } catch (error) {
    if (error instanceof SpecError) parentPort!.postMessage({ problems: error.problems });
    else parentPort!.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
