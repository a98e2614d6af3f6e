/**
 * The lookup table of generate targets: one entry per output family, in the order they run.
 * Adding a target means adding a file under `targets/` and a line here.
 */
import type { Model } from "../model.ts";
import type { GeneratedFile } from "../output.ts";
import type { OpenApiDocument } from "../load-spec.ts";
import type { RuntimeModules } from "../runtime-modules.ts";

export interface TargetInput {
  model: Model;
  /** The single-file, `$id`-free document (see portable-bundle.ts). */
  portable: OpenApiDocument;
  /** The spec path as it should appear in generated headers (`spec/openapi.yaml`). */
  source: string;
  /** Where client and server files import the runtime from (default: the repository's `generated/`). */
  runtime?: RuntimeModules;
}

export interface Target {
  run: (input: TargetInput) => GeneratedFile[] | Promise<GeneratedFile[]>;
  /** The paths under the output folder this target owns (a file, or a folder ending in `/`). */
  owns: string[];
  /** Targets whose files this one's import (`../types.ts`, `../validators/index.js`). */
  needs: string[];
}

// Each target is loaded when it runs: they bring ts-morph, TypeScript and Ajv, which the CLI's
// other commands (and its help, which lists the target names) should not pay for at start.
export const TARGETS: Record<string, Target> = {
  types: { run: async (input) => (await import("./types.ts")).typesTarget(input), owns: ["types.ts"], needs: [] },
  validators: { run: async ({ model, source }) => (await import("./validators/index.ts")).validatorsTarget(model, source), owns: ["validators/"], needs: ["types"] },
  client: { run: async (input) => (await import("./client/index.ts")).clientTarget(input), owns: ["client/"], needs: ["types", "validators"] },
  server: { run: async (input) => (await import("./server/index.ts")).serverTarget(input), owns: ["server/"], needs: ["types", "validators"] },
};

export const TARGET_NAMES = Object.keys(TARGETS);

/**
 * The targets the selection imports from but does not include, and that `present` (whether a
 * path exists in the output folder) says are not there either: their output would not compile.
 */
export function missingNeeds(targets: readonly string[], present: (path: string) => boolean): string[] {
  const needed = new Set(targets.flatMap((t) => TARGETS[t]?.needs ?? []).filter((n) => !targets.includes(n)));
  return TARGET_NAMES.filter((n) => needed.has(n) && !TARGETS[n]!.owns.every((path) => present(path)));
}

/**
 * What a run of these targets may replace: undefined (the whole folder) when every target runs,
 * otherwise the paths the selected targets own, so `--targets types` never touches `client/`.
 */
export function scopeOf(targets: readonly string[]): string[] | undefined {
  if (TARGET_NAMES.every((t) => targets.includes(t))) return undefined;
  return targets.flatMap((t) => TARGETS[t]?.owns ?? []).sort();
}
