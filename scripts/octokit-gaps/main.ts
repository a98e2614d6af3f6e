/**
 * Writes (or, with --check, checks) README.md's table of what a receiver typed with
 * `@octokit/webhooks-types` will miss: the deliveries the reference sends (deliveries.ts),
 * each checked against `@octokit/webhooks-schemas` (check.ts), grouped and rendered (table.ts)
 * between the section's markers (readme.ts). Run after changing what the reference sends:
 *
 *   node --import tsx scripts/octokit-gaps/main.ts          # rewrites the table
 *   node --import tsx scripts/octokit-gaps/main.ts --check  # exit 1 when it is stale
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OctokitSchemas, octokitSchemasVersion } from "./check.ts";
import { collectDeliveries, type Delivery } from "./deliveries.ts";
import { between, replaceBetween } from "./readme.ts";
import { gapsOf, renderGaps, type Gaps } from "./table.ts";

export const COMMAND = "npm run readme:octokit-gaps";
export const README = join(import.meta.dirname, "../../README.md");

/** Checks each delivery against the definition of its event and action. */
export function crossCheckDeliveries(deliveries: readonly Delivery[], schemas = new OctokitSchemas()): Gaps {
  return gapsOf(
    deliveries.map((delivery) => {
      const definition = schemas.definitionFor(delivery.event, delivery.action);
      if (!definition) throw new Error(`@octokit/webhooks-schemas has no definition for ${delivery.event}${delivery.action ? `.${delivery.action}` : ""} (${delivery.scenario})`);
      return { delivery, check: schemas.check(definition, delivery.payload) };
    }),
  );
}

export function renderTable(gaps: Gaps): string {
  return renderGaps(gaps, octokitSchemasVersion(), COMMAND);
}

async function main(): Promise<number> {
  const check = process.argv.includes("--check");
  const gaps = crossCheckDeliveries(await collectDeliveries());
  const table = renderTable(gaps);
  const readme = readFileSync(README, "utf8");
  if (check) {
    if (between(readme) === table) return 0;
    process.stderr.write(`README.md: the octokit gaps table is stale; run ${COMMAND}\n`);
    return 1;
  }
  writeFileSync(README, replaceBetween(readme, table));
  process.stdout.write(`README.md: ${gaps.deliveries} deliveries, ${gaps.passing} pass @octokit/webhooks-schemas\n`);
  return 0;
}

if (import.meta.filename === process.argv[1]) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(2);
    },
  );
}
