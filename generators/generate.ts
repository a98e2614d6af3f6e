/**
 * `generate` as a function: spec in, files out. It loads and validates the spec, builds the
 * model once, and runs each selected target. Nothing here touches the output folder; the CLI
 * writes or drift-checks the result through output.ts.
 */
import { isAbsolute, relative, sep } from "node:path";
import { loadSpec } from "./load-spec.ts";
import { buildModel } from "./model.ts";
import { portableDocument } from "./portable-bundle.ts";
import { runtimeModules } from "./runtime-modules.ts";
import { TARGETS, type TargetInput } from "./targets/registry.ts";
import type { GeneratedFile } from "./output.ts";

export interface GenerateOptions {
  spec: string;
  targets: readonly string[];
  /** The output folder the files are meant for (default `generated`): it decides how they import the runtime. */
  out?: string;
}

/** How the spec is named in headers: relative and `/`-separated, so output never depends on the machine. */
function sourceName(spec: string): string {
  const rel = isAbsolute(spec) ? relative(process.cwd(), spec) : spec;
  return rel.split(sep).join("/").replace(/^\.\//, "");
}

export async function generate(options: GenerateOptions): Promise<GeneratedFile[]> {
  for (const t of options.targets) {
    if (!(t in TARGETS)) throw new Error(`unknown target ${JSON.stringify(t)} (known: ${Object.keys(TARGETS).join(", ")})`);
  }
  await loadSpec(options.spec);
  const model = buildModel(options.spec);
  const input: TargetInput = {
    model,
    portable: portableDocument(model.root, model.schemaFiles),
    source: sourceName(options.spec),
    runtime: runtimeModules(options.out ?? "generated"),
  };
  const files: GeneratedFile[] = [];
  for (const name of Object.keys(TARGETS)) {
    if (options.targets.includes(name)) files.push(...(await TARGETS[name]!.run(input)));
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

