/**
 * Start-up cost of the validators, each measured in fresh processes (a warm module cache would
 * hide what a real process pays), against Ajv compiling every schema of the contract at start:
 * importing `generated/validators`; importing it and validating one push payload (what a webhook
 * receiver pays before its first answer: the validators load on first use, issue 43); and
 * importing it and validating `{}` against every schema by name, which loads every body validator
 * and, as `{}` fails most of them, the explaining copies too. Wall time and CPU time
 * (`process.cpuUsage`, steadier on a loaded machine), each the median of RUNS processes.
 * Target: importing costs at most 0.03× of compiling.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { median, printSection } from "./lib/report.ts";

const root = join(import.meta.dirname, "..");
const RUNS = 7;

interface Timing {
  wall: number;
  cpu: number;
}

/** Runs `setup` untimed, then times `script` from its first line to its last. */
function timeInChild(script: string, tsx: boolean, setup: string): Timing {
  const timed = `${setup}\nconst t = performance.now(); const c = process.cpuUsage();\n${script}\nconst u = process.cpuUsage(c); console.log(JSON.stringify({ wall: performance.now() - t, cpu: (u.user + u.system) / 1000 }));`;
  const args = [...(tsx ? ["--import", "tsx"] : []), "--input-type=module", "-e", timed];
  return JSON.parse(execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" }).trim()) as Timing;
}

/** The tsx loader is registered before `t` is taken, so only the compiling is timed. */
const COMPILE = `
const { createAjv } = await import("./generators/ajv.ts");
const { readSchemaFiles } = await import("./generators/schema-files.ts");
const files = readSchemaFiles("spec/schemas");
const ajv = createAjv(files);
for (const f of files) ajv.getSchema(f.id);`;

const IMPORT = `await import("./generated/validators/index.js");`;

// The payload is read before the clock starts.
const READ_PUSH = `import { readFileSync } from "node:fs"; const push = JSON.parse(readFileSync("spec/examples/webhooks/push/valid-branch-push.json", "utf8"));`;
const PUSH = `
const v = await import("./generated/validators/index.js");
if (!v.validateWebhook("push", push).valid) throw new Error("the push example must pass");`;

const EVERY = `
const v = await import("./generated/validators/index.js");
for (const name of v.schemaNames) v.validateSchema(name, {});`;

function measure(script: string, { tsx = false, setup = "" } = {}): Timing {
  const runs = Array.from({ length: RUNS }, () => timeInChild(script, tsx, setup));
  return { wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu)) };
}

export function benchStartup(): void {
  const compile = measure(COMPILE, { tsx: true });
  const imported = measure(IMPORT);
  const push = measure(PUSH, { setup: READ_PUSH });
  const every = measure(EVERY);
  for (const kind of ["wall", "cpu"] as const) {
    printSection(
      `start-up: validators ready, ${kind === "wall" ? "wall-clock" : "CPU"} time (median of ${RUNS} fresh processes)`,
      [
        { name: "Ajv compiles every schema at start (baseline)", value: compile[kind], unit: "ms", better: "lower", baseline: true },
        { name: "import generated/validators", value: imported[kind], unit: "ms", better: "lower" },
        { name: "import + validate one push payload", value: push[kind], unit: "ms", better: "lower" },
        { name: "import + validateSchema(name, {}) for every schema", value: every[kind], unit: "ms", better: "lower" },
      ],
      `import ≤ 0.03× compile (now ${(imported[kind] / compile[kind]).toFixed(3)}×)`,
    );
  }
}
