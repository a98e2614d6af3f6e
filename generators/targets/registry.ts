/**
 * The lookup table of generate targets: one entry per output family, in the order they run.
 * Adding a target means adding a file under `targets/` and a line here.
 */
import type { Model } from "../model.ts";
import type { GeneratedFile } from "../output.ts";
import type { OpenApiDocument } from "../load-spec.ts";
import type { RuntimeModules } from "../runtime-modules.ts";
import { clientTarget } from "./client/index.ts";
import { serverTarget } from "./server/index.ts";
import { typesTarget } from "./types.ts";
import { validatorsTarget } from "./validators/index.ts";

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

export const TARGETS: Record<string, Target> = {
  types: { run: (input) => typesTarget(input), owns: ["types.ts"], needs: [] },
  validators: { run: ({ model, source }) => validatorsTarget(model, source), owns: ["validators/"], needs: ["types"] },
  client: { run: (input) => clientTarget(input), owns: ["client/"], needs: ["types", "validators"] },
  server: { run: (input) => serverTarget(input), owns: ["server/"], needs: ["types", "validators"] },
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
