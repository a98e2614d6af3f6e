/**
 * `generate` time for all targets against openapi-typescript alone on the same (portable)
 * document — the one step every TypeScript contract pipeline pays anyway.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import { parse } from "yaml";
import { generate } from "../generators/generate.ts";
import { TARGET_NAMES } from "../generators/targets/registry.ts";
import { portableDocument } from "../generators/portable-bundle.ts";
import { readSchemaFiles } from "../generators/schema-files.ts";
import { median, printSection } from "./lib/report.ts";

const root = join(import.meta.dirname, "..");
const RUNS = 3;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export async function benchGenerate(): Promise<void> {
  const spec = join(root, "spec/openapi.yaml");
  const doc = portableDocument(parse(readFileSync(spec, "utf8")) as Record<string, unknown>, readSchemaFiles(join(root, "spec/schemas")), spec);
  // One untimed run of each, so both are measured with warm module and file caches.
  await generate({ spec, targets: TARGET_NAMES });
  astToString(await openapiTS(structuredClone(doc) as unknown as OpenAPI3, { silent: true }));
  const ots: number[] = [];
  const gen: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    ots.push(await time(async () => astToString(await openapiTS(structuredClone(doc) as unknown as OpenAPI3, { alphabetize: true, silent: true }))));
    gen.push(await time(() => generate({ spec, targets: TARGET_NAMES })));
  }
  printSection(`generate (median of ${RUNS} in-process runs)`, [
    { name: "openapi-typescript alone (baseline)", value: median(ots), unit: "ms", better: "lower", baseline: true },
    { name: `generate --targets ${TARGET_NAMES.join(",")}`, value: median(gen), unit: "ms", better: "lower" },
  ]);
}
