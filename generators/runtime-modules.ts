/**
 * Where the generated client and server import the hand-written runtime (`runtime/client`,
 * `runtime/server`) from. Written into this package (the default `generated/`), they use a
 * relative path, as the reference server and the tests need. Written anywhere else (a build
 * pipeline's `--out src/generated`), a relative path would point into wherever this package
 * happens to sit on the generating machine, so they import the package's own
 * `service-contract/runtime/…` export instead, which resolves the same on every machine.
 *
 * Relative specifiers end in `.js`, never `.ts`: TypeScript (`nodenext`) maps `./x.js` to `x.ts`
 * when it checks and leaves it as is when it emits, so the same files type-check and run in a
 * project that compiles them, in one that runs them through tsx or vitest, and in this package's
 * own build (`dist/`, where the runtime is compiled beside them).
 */
import { join, relative, resolve, sep } from "node:path";
import { isWithin } from "./output.ts";
import { PACKAGE_ROOT } from "./package-files.ts";

export interface RuntimeModules {
  /** Module specifier of the client runtime, as seen from `<out>/client/`. */
  client: string;
  /** Module specifier of the server runtime, as seen from `<out>/server/`. */
  server: string;
}

export function runtimeModules(outDir: string): RuntimeModules {
  const out = resolve(outDir);
  if (!isWithin(PACKAGE_ROOT, out)) return { client: "service-contract/runtime/client", server: "service-contract/runtime/server" };
  // Both client/ and server/ sit one level below the output folder, so one base serves both.
  const base = relative(join(out, "client"), join(PACKAGE_ROOT, "runtime")).split(sep).join("/");
  return { client: `${base}/client/index.js`, server: `${base}/server/index.js` };
}

/** What the repository's own `generated/` imports; the default when no output folder is known. */
export const DEFAULT_RUNTIME_MODULES: RuntimeModules = runtimeModules(join(PACKAGE_ROOT, "generated"));
