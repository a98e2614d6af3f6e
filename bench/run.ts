/**
 * `npm run bench`: every benchmark, each reported as ratios against a baseline measured in the
 * same run (absolute numbers vary between machines; ratios are what the targets are about).
 * `npm run bench -- validators startup` runs a subset. The same as `service-contract bench`.
 */
import { runSections, SECTION_NAMES, unknownSections } from "./sections.ts";

const wanted = process.argv.slice(2);
const unknown = unknownSections(wanted);
if (unknown.length) {
  process.stderr.write(`unknown bench section(s): ${unknown.join(", ")}; known: ${SECTION_NAMES.join(", ")}\n`);
  process.exit(2);
}
await runSections(wanted);
