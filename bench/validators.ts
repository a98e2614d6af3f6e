/**
 * Validator throughput on a typical push delivery: the precompiled standalone validator, the
 * same schema compiled by Ajv at run time, and JSON.parse of the same bytes — the floor, since a
 * receiver must parse before it can validate. Target: validating costs less than parsing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Bench } from "tinybench";
import { createAjv } from "../generators/ajv.ts";
import { readSchemaFiles } from "../generators/schema-files.ts";
import { validateWebhook } from "../generated/validators/index.js";
import { printSection } from "./lib/report.ts";

const root = join(import.meta.dirname, "..");

export async function benchValidators(): Promise<void> {
  const bytes = readFileSync(join(root, "spec/examples/webhooks/push/valid-branch-push.json"), "utf8");
  const payload = JSON.parse(bytes) as unknown;
  const schemas = readSchemaFiles(join(root, "spec/schemas"));
  const runtime = createAjv(schemas).getSchema(schemas.find((s) => s.name === "webhooks/push")!.id)!;
  if (!validateWebhook("push", payload).valid || !runtime(payload)) throw new Error("the benchmark payload must be valid");

  let sink = 0;
  const bench = new Bench({ time: 1000, warmupTime: 200 });
  bench
    .add("JSON.parse of the same bytes (floor)", () => {
      sink += (JSON.parse(bytes) as unknown[]) ? 1 : 0;
    })
    .add("validateWebhook (precompiled)", () => {
      sink += validateWebhook("push", payload).valid ? 1 : 0;
    })
    .add("Ajv compiled at run time", () => {
      sink += runtime(payload) ? 1 : 0;
    });
  await bench.run();
  if (sink === 0) throw new Error("unreachable");
  const rows = bench.tasks.map((t, i) => {
    const r = t.result as { throughput?: { mean: number } };
    return { name: t.name, value: r.throughput?.mean ?? 0, unit: "ops/s", better: "higher" as const, baseline: i === 0 };
  });
  printSection(`validate a push payload (${bytes.length} bytes)`, rows, "precompiled validation ≥ 1× the JSON.parse rate (costs less than parsing)");
}
