/**
 * Where this package's own files are, whether it runs from source (a clone, through tsx) or
 * compiled (`dist/`, as installed from npm). Compiled modules sit one folder deeper than their
 * sources, so a path written relative to a module (`../../spec/openapi.yaml`) would point at
 * different places in the two; every file the code reads at run time — the contract, the
 * templates, the migrations, the demo fixture — is named from the package root instead.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The nearest folder above this module holding a package.json: the repository, or the installed package. */
function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}

export const PACKAGE_ROOT = findPackageRoot(import.meta.dirname);

/** A file of this package, by its path in the repository (`spec/openapi.yaml`). */
export function packageFile(...segments: string[]): string {
  return join(PACKAGE_ROOT, ...segments);
}

export const PACKAGE_JSON = JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

/** The package's own contract: what `lint`, `generate` and `mock` use when no --spec is given. */
export const PACKAGE_SPEC = packageFile("spec", "openapi.yaml");

/**
 * A tool only one command uses — Prism for `mock`, Redocly for `lint`, playwright-core for the
 * conformance suite's browser driver — is an optional peer dependency, so that installing the
 * toolkit does not install all three; this error names the one that is missing and how to add it.
 */
export class MissingPeerError extends Error {
  override name = "MissingPeerError";
  constructor(
    readonly peer: string,
    use: string,
  ) {
    const range = (PACKAGE_JSON.peerDependencies ?? {})[peer];
    super(`${use} needs ${peer}, an optional peer dependency of service-contract: install it (npm install --save-dev ${peer}${range ? `@${range}` : ""}) to use this`);
  }
}

const requireHere = createRequire(import.meta.url);

/** The path of the optional peer `peer` (or of its `file`), resolved from this package, or MissingPeerError. */
export function resolvePeer(peer: string, use: string, file?: string): string {
  try {
    return requireHere.resolve(file ? `${peer}/${file}` : peer);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND") throw new MissingPeerError(peer, use);
    throw error;
  }
}
