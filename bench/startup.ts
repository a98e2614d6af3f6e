/**
 * Start-up cost of the validators, each measured in fresh processes (a warm module cache would
 * hide what a real process pays): importing every precompiled validator, against Ajv compiling
 * every schema of the contract at start. Target: importing costs under a tenth of compiling.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { median, printSection } from "./lib/report.ts";

const root = join(import.meta.dirname, "..");
const RUNS = 5;

function timeInChild(script: string, tsx: boolean): number {
  const args = [...(tsx ? ["--import", "tsx"] : []), "--input-type=module", "-e", script];
  return Number(execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" }).trim());
}

const IMPORT = `
const t = performance.now();
await import("./generated/validators/index.js");
console.log(performance.now() - t);`;

const COMPILE = `
const { createAjv } = await import("./generators/ajv.ts");
const { readSchemaFiles } = await import("./generators/schema-files.ts");
const t = performance.now();
const files = readSchemaFiles("spec/schemas");
const ajv = createAjv(files);
for (const f of files) ajv.getSchema(f.id);
console.log(performance.now() - t);`;

export function benchStartup(): void {
  const compile = median(Array.from({ length: RUNS }, () => timeInChild(COMPILE, true)));
  const imported = median(Array.from({ length: RUNS }, () => timeInChild(IMPORT, false)));
  printSection(
    `start-up: all validators ready (median of ${RUNS} fresh processes)`,
    [
      { name: "Ajv compiles every schema at start (baseline)", value: compile, unit: "ms", better: "lower", baseline: true },
      { name: "import generated/validators", value: imported, unit: "ms", better: "lower" },
    ],
    "import < 0.10× compile",
  );
}
