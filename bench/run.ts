/**
 * `npm run bench`: every benchmark, each reported as ratios against a baseline measured in the
 * same run (absolute numbers vary between machines; ratios are what the targets are about).
 * `npm run bench -- validators startup` runs a subset.
 */
import { benchDeliveries } from "./deliveries.ts";
import { benchFeeds } from "./feeds.ts";
import { benchGenerate } from "./generate.ts";
import { benchStartup } from "./startup.ts";
import { benchValidators } from "./validators.ts";

const SECTIONS: Record<string, () => unknown> = {
  validators: benchValidators,
  startup: benchStartup,
  generate: benchGenerate,
  feeds: benchFeeds,
  deliveries: benchDeliveries,
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !(w in SECTIONS));
if (unknown.length) {
  process.stderr.write(`unknown bench section(s): ${unknown.join(", ")}; known: ${Object.keys(SECTIONS).join(", ")}\n`);
  process.exit(2);
}
process.stdout.write(`# service-contract benchmarks (node ${process.version}, ${process.platform}/${process.arch})\n`);
for (const [name, run] of Object.entries(SECTIONS)) {
  if (wanted.length === 0 || wanted.includes(name)) await run();
}
