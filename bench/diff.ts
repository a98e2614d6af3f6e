/**
 * `diff` time beyond loading (issue 26: "well under a second of work beyond loading them"):
 * our contract against a copy of itself, and against a copy with one breaking change in a schema
 * every operation and webhook reaches (User loses a required field). The baseline is loading
 * the two contracts (reading and parsing every file, following every `$ref` once), which any
 * comparison pays first.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { diffContracts, diffDocuments, loadContract } from "../diff/index.ts";
import { median, printSection } from "./lib/report.ts";

const root = join(import.meta.dirname, "..");
const RUNS = 7;

function time(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

export async function benchDiff(): Promise<void> {
  const spec = join(root, "spec");
  const scratch = mkdtempSync(join(tmpdir(), "bench-diff-"));
  try {
    const same = join(scratch, "same");
    const edited = join(scratch, "edited");
    cpSync(spec, same, { recursive: true });
    cpSync(spec, edited, { recursive: true });
    const userFile = join(edited, "schemas/user.json");
    const user = JSON.parse(readFileSync(userFile, "utf8")) as { properties: Record<string, unknown>; required: string[] };
    delete user.properties.site_admin;
    user.required = user.required.filter((r) => r !== "site_admin");
    writeFileSync(userFile, JSON.stringify(user, null, 2));

    // One untimed round, so every figure is measured with warm code and file caches.
    const base = loadContract(spec);
    diffDocuments(base, loadContract(same));
    const changes = diffDocuments(base, loadContract(edited)).length;
    await diffContracts(base, loadContract(edited));

    const load: number[] = [];
    const identical: number[] = [];
    const breaking: number[] = [];
    const whole: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let a = loadContract(spec);
      let b = loadContract(same);
      load.push(time(() => ((a = loadContract(spec)), (b = loadContract(same)))));
      identical.push(time(() => diffDocuments(a, b)));
      const c = loadContract(edited);
      breaking.push(time(() => diffDocuments(a, c)));
      const t = performance.now();
      await diffContracts(a, c);
      whole.push(performance.now() - t);
    }
    printSection(
      `diff (median of ${RUNS} in-process runs; ${changes} changes for the edited copy)`,
      [
        { name: "load both contracts (baseline)", value: median(load), unit: "ms", better: "lower", baseline: true },
        { name: "compare: identical copy", value: median(identical), unit: "ms", better: "lower" },
        { name: "compare: User.site_admin removed", value: median(breaking), unit: "ms", better: "lower" },
        { name: "compare + rule table: User.site_admin removed", value: median(whole), unit: "ms", better: "lower" },
      ],
      "well under 1,000 ms of comparing beyond loading (issue 26)",
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
