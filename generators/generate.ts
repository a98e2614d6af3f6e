/**
 * `generate` as a function: spec in, files out. It loads and validates the spec, builds the
 * model once, and runs each selected target. Nothing here touches the output folder; the CLI
 * writes or drift-checks the result through output.ts.
 */
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { validateSpec } from "./load-spec.ts";
import { buildModel } from "./model.ts";
import { portableDocument } from "./portable-bundle.ts";
import { runtimeModules } from "./runtime-modules.ts";
import { isWithin } from "./output.ts";
import { PACKAGE_ROOT, PACKAGE_SPEC } from "./package-files.ts";
import { TARGETS, type TargetInput } from "./targets/registry.ts";
import type { GeneratedFile } from "./output.ts";

export interface GenerateOptions {
  spec: string;
  targets: readonly string[];
  /** The output folder the files are meant for (default `generated`): it decides how they import the runtime. */
  out?: string;
}

/**
 * The project the output belongs to: the nearest folder above the output folder with a
 * package.json, or else the folder that holds the output folder.
 */
function projectRoot(out: string): string {
  const start = dirname(resolve(out));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

/**
 * How the spec is named in headers: relative to the output's project root and `/`-separated, so
 * the output depends neither on the machine nor on the directory `generate` was run from —
 * `--check` from a subfolder, naming the same files, finds no drift.
 */
function sourceName(spec: string, out: string): string {
  // The package's own contract, generated into another project, is named by its package path:
  // where node_modules puts it differs between package managers and machines.
  if (resolve(spec) === PACKAGE_SPEC && !isWithin(PACKAGE_ROOT, resolve(out))) return "service-contract/spec/openapi.yaml";
  return relative(projectRoot(out), resolve(spec)).split(sep).join("/");
}

export async function generate(options: GenerateOptions): Promise<GeneratedFile[]> {
  for (const t of options.targets) {
    if (!(t in TARGETS)) throw new Error(`unknown target ${JSON.stringify(t)} (known: ${Object.keys(TARGETS).join(", ")})`);
  }
  const model = buildModel(options.spec, await validateSpec(options.spec));
  const input: TargetInput = {
    model,
    portable: portableDocument(model.root, model.schemaFiles, model.specFile),
    source: sourceName(options.spec, options.out ?? "generated"),
    runtime: runtimeModules(options.out ?? "generated"),
  };
  const files: GeneratedFile[] = [];
  for (const name of Object.keys(TARGETS)) {
    if (options.targets.includes(name)) files.push(...(await TARGETS[name]!.run(input)));
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

