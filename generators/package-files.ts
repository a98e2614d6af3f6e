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
  devDependencies?: Record<string, string>;
};

/** The package's own contract: what `lint`, `generate` and `mock` use when no --spec is given. */
export const PACKAGE_SPEC = packageFile("spec", "openapi.yaml");

/**
 * A tool only one command uses — Prism for `mock`, Redocly for `lint`, playwright-core for the
 * conformance suite's browser driver, openapi-typescript (with TypeScript) for generate's types —
 * is an optional peer dependency, so that installing the toolkit does not install them all; this
 * error names the ones missing and the command that adds them, at the versions this package
 * was tested with.
 */
export class MissingPeerError extends Error {
  override name = "MissingPeerError";
  constructor(
    readonly peers: string[],
    use: string,
  ) {
    const install = peers.map((peer) => `${peer}@${PACKAGE_JSON.devDependencies?.[peer] ?? PACKAGE_JSON.peerDependencies?.[peer] ?? "latest"}`);
    const which = peers.length === 1 ? `${peers[0]}, an optional peer dependency` : `${peers.join(" and ")}, optional peer dependencies`;
    super(`${use} needs ${which} of service-contract: install ${peers.length === 1 ? "it" : "them"} (npm install --save-dev ${install.join(" ")}) to use this`);
  }
}

const requireHere = createRequire(import.meta.url);

function resolves(specifier: string): string | undefined {
  try {
    return requireHere.resolve(specifier);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND") return undefined;
    throw error;
  }
}

/** The path of the optional peer `peer` (or of its `file`), resolved from this package, or MissingPeerError. */
export function resolvePeer(peer: string, use: string, file?: string): string {
  const path = resolves(file ? `${peer}/${file}` : peer);
  if (path === undefined) throw new MissingPeerError([peer], use);
  return path;
}

/** MissingPeerError naming every one of `peers` that is not installed (nothing when all are). */
export function requirePeers(use: string, ...peers: string[]): void {
  const missing = peers.filter((peer) => resolves(`${peer}/package.json`) === undefined && resolves(peer) === undefined);
  if (missing.length > 0) throw new MissingPeerError(missing, use);
}
