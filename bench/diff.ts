/**
 * `diff` time beyond loading (issue 26: "well under a second of work beyond loading them"):
 * our contract against a copy of itself, and against a copy with one breaking change in a schema
 * every operation and webhook reaches (User loses a required field). The baseline is loading
 * the two contracts (reading and parsing every file, following every `$ref` once), which any
 * comparison pays first. The pattern row (issue 42) rewrites every pattern of the contract into
 * another form of the same language (`[0-9]` → `\d`, `[a-z0-9]` → `[a-z\d]`), so each one is
 * compared on automata (built afresh each run) and found equal: the cost of the pattern comparison.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { diffContracts, diffDocuments, loadContract } from "../diff/index.ts";
import { forgetPatterns } from "../diff/patterns.ts";
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
    const rewritten = join(scratch, "patterns");
    cpSync(spec, rewritten, { recursive: true });
    let patterns = 0;
    for (const name of readdirSync(join(rewritten, "schemas"), { recursive: true, encoding: "utf8" }).filter((n) => n.endsWith(".json"))) {
      const file = join(rewritten, "schemas", name);
      const text = readFileSync(file, "utf8");
      const next = text.replaceAll("[0-9]", "\\\\d").replaceAll("[a-z0-9]", "[a-z\\\\d]").replaceAll("[0-9a-f]", "[\\\\da-f]");
      if (next !== text) writeFileSync(file, next);
      patterns += (next.match(/"pattern":/g) ?? []).length;
    }

    // One untimed round, so every figure is measured with warm code and file caches.
    const base = loadContract(spec);
    diffDocuments(base, loadContract(same));
    const changes = diffDocuments(base, loadContract(edited)).length;
    await diffContracts(base, loadContract(edited));

    const load: number[] = [];
    const identical: number[] = [];
    const breaking: number[] = [];
    const rewrittenPatterns: number[] = [];
    const whole: number[] = [];
    const patternChanges = diffDocuments(base, loadContract(rewritten)).length;
    for (let i = 0; i < RUNS; i++) {
      let a = loadContract(spec);
      let b = loadContract(same);
      load.push(time(() => ((a = loadContract(spec)), (b = loadContract(same)))));
      identical.push(time(() => diffDocuments(a, b)));
      const c = loadContract(edited);
      breaking.push(time(() => diffDocuments(a, c)));
      const p = loadContract(rewritten);
      forgetPatterns();
      rewrittenPatterns.push(time(() => diffDocuments(a, p)));
      const t = performance.now();
      await diffContracts(a, c);
      whole.push(performance.now() - t);
    }
    printSection(
      `diff (median of ${RUNS} in-process runs; ${changes} changes for the edited copy; ${patternChanges} in the files whose ${patterns} patterns were rewritten)`,
      [
        { name: "load both contracts (baseline)", value: median(load), unit: "ms", better: "lower", baseline: true },
        { name: "compare: identical copy", value: median(identical), unit: "ms", better: "lower" },
        { name: "compare: User.site_admin removed", value: median(breaking), unit: "ms", better: "lower" },
        { name: "compare: every pattern rewritten, same languages (automata built afresh)", value: median(rewrittenPatterns), unit: "ms", better: "lower" },
        { name: "compare + rule table: User.site_admin removed", value: median(whole), unit: "ms", better: "lower" },
      ],
      "well under 1,000 ms of comparing beyond loading (issue 26)",
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
