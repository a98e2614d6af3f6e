/**
 * Where the generated client and server import the hand-written runtime (`runtime/client`,
 * `runtime/server`) from. Written into this package (the default `generated/`), they use a
 * relative path, as the reference server and the tests need. Written anywhere else (a build
 * pipeline's `--out src/generated`), a relative path would point into wherever this package
 * happens to sit on the generating machine, so they import the package's own
 * `service-contract/runtime/…` export instead, which resolves the same on every machine.
 */
import { join, relative, resolve, sep } from "node:path";
import { isWithin } from "./output.ts";

export interface RuntimeModules {
  /** Module specifier of `runtime/client/index.ts`, as seen from `<out>/client/`. */
  client: string;
  /** Module specifier of `runtime/server/index.ts`, as seen from `<out>/server/`. */
  server: string;
}

const packageRoot = join(import.meta.dirname, "..");

export function runtimeModules(outDir: string): RuntimeModules {
  const out = resolve(outDir);
  const inside = isWithin(packageRoot, out);
  // Both client/ and server/ sit one level below the output folder, so one base serves both.
  const base = inside ? relative(join(out, "client"), join(packageRoot, "runtime")).split(sep).join("/") : "service-contract/runtime";
  return { client: `${base}/client/index.ts`, server: `${base}/server/index.ts` };
}

/** What the repository's own `generated/` imports; the default when no output folder is known. */
export const DEFAULT_RUNTIME_MODULES: RuntimeModules = runtimeModules(join(packageRoot, "generated"));
