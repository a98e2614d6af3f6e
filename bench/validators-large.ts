/**
 * Validation of 8 MB answers (issue 41): a feed page of 4 million zeros where activity events are
 * expected, and a valid feed page of the same size. Each figure is a ratio to JSON.parse of the
 * same bytes, measured in the same run: a validator linear in its input stays within a small
 * factor of parsing whatever the payload holds. Before issue 41 the wrong page never finished
 * (the validators ran with allErrors and copied the error list once per bad item).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { validateResponse } from "../generated/validators/index.js";
import { printSection } from "./lib/report.ts";

const root = join(import.meta.dirname, "..");
const SIZE = 8 * 1024 * 1024;

/** The median of `runs` timings of `work`, in ms, after one warm-up. */
function median(work: () => unknown, runs = 7): number {
  work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

/** A valid feed page of about SIZE bytes: the contract's push event example, repeated. */
function validPage(): string {
  const event = JSON.parse(readFileSync(join(root, "spec/examples/activity/push/valid-two-commits.json"), "utf8")) as Record<string, unknown>;
  const one = JSON.stringify(event).length + 1;
  const page = Array.from({ length: Math.ceil(SIZE / one) }, (_, i) => ({ ...event, id: String(i + 1) }));
  return JSON.stringify(page);
}

function rows(label: string, bytes: string) {
  const value = JSON.parse(bytes) as unknown;
  const parse = median(() => JSON.parse(bytes));
  const validate = median(() => validateResponse("listPublicEvents", 200, value));
  return [
    { name: `${label}: JSON.parse of the ${(bytes.length / 1024 / 1024).toFixed(1)} MB (floor)`, value: parse, unit: "ms", better: "lower" as const, baseline: true },
    { name: `${label}: validateResponse("listPublicEvents", 200, value)`, value: validate, unit: "ms", better: "lower" as const, baseline: false },
  ];
}

export async function benchLargeValidation(): Promise<void> {
  const zeros = JSON.stringify(Array(SIZE / 2).fill(0));
  const valid = validPage();
  if (validateResponse("listPublicEvents", 200, JSON.parse(zeros) as unknown).valid) throw new Error("the wrong page must be invalid");
  const check = validateResponse("listPublicEvents", 200, JSON.parse(valid) as unknown);
  if (!check.valid) throw new Error(`the valid page must be valid: ${JSON.stringify(check.errors[0])}`);
  printSection("validate an 8 MB page of wrong activity events (4 million zeros)", rows("wrong", zeros), "validation ≤ 3× JSON.parse of the same bytes (linear, whatever the items)");
  printSection("validate a valid 8 MB page of activity events (pushes)", rows("valid", valid), "validation ≤ 3× JSON.parse of the same bytes");
  // The same page with its last event wrong: the whole page is read before the error is found.
  const lastWrong = `${valid.slice(0, -1)},0]`;
  printSection("validate the valid 8 MB page with its last item wrong", rows("last wrong", lastWrong), "validation ≤ 3× JSON.parse of the same bytes");
}
