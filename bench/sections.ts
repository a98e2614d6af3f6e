/**
 * The benchmark sections of `service-contract bench` (which `npm run bench` runs).
 * Each is imported only when it runs: the load generators (autocannon, tinybench) are development
 * dependencies, and one section should not need another's.
 */
const SECTIONS = {
  validators: async () => {
    await (await import("./validators.ts")).benchValidators();
    await (await import("./validators-large.ts")).benchLargeValidation();
  },
  startup: async () => (await import("./startup.ts")).benchStartup(),
  generate: async () => (await import("./generate.ts")).benchGenerate(),
  "generate-check": async () => (await import("./generate-check.ts")).benchGenerateCheck(),
  feeds: async () => (await import("./feeds.ts")).benchFeeds(),
  deliveries: async () => (await import("./deliveries.ts")).benchDeliveries(),
  diff: async () => (await import("./diff.ts")).benchDiff(),
} satisfies Record<string, () => Promise<unknown>>;

type SectionName = keyof typeof SECTIONS;
export const SECTION_NAMES = Object.keys(SECTIONS) as SectionName[];

/** The names that are not sections (empty when all are known). */
export function unknownSections(wanted: readonly string[]): string[] {
  return wanted.filter((w) => !(SECTION_NAMES as string[]).includes(w));
}

/** Runs the wanted sections (all when none is named) in the table's order, each printing its own figures. */
export async function runSections(wanted: readonly string[]): Promise<void> {
  process.stdout.write(`# service-contract benchmarks (node ${process.version}, ${process.platform}/${process.arch})\n`);
  for (const name of SECTION_NAMES) {
    if (wanted.length === 0 || wanted.includes(name)) await SECTIONS[name]();
  }
}
