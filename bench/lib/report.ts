/** Prints one benchmark section as a table: each row with its figure and its ratio to the baseline row. */
export interface Row {
  name: string;
  /** The figure; `unit` says what it is. */
  value: number;
  unit: string;
  /** Higher is better (ops/s) or lower is better (ms). */
  better: "higher" | "lower";
  baseline?: boolean;
}

function fmt(n: number): string {
  if (n >= 100) return Math.round(n).toLocaleString("en-US");
  return n.toPrecision(3);
}

export function printSection(title: string, rows: Row[], target?: string): void {
  const base = rows.find((r) => r.baseline) ?? rows[0]!;
  process.stdout.write(`\n## ${title}\n`);
  const width = Math.max(...rows.map((r) => r.name.length));
  for (const r of rows) {
    const ratio = r.value / base.value;
    const rel = r === base ? "baseline" : `${ratio.toFixed(2)}× baseline`;
    process.stdout.write(`  ${r.name.padEnd(width)}  ${fmt(r.value).padStart(12)} ${r.unit.padEnd(6)} ${rel}\n`);
  }
  if (target) process.stdout.write(`  target: ${target}\n`);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
