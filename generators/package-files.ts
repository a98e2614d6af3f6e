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

/**
 * An optional peer installed at a major version outside the range this package declares (`npm i -D
 * typescript` installs TypeScript 7, which openapi-typescript cannot run on): one line saying
 * which major is needed and which was found, instead of the stack trace of whatever breaks first.
 * Thrown and printed as MissingPeerError is (the CLI: one line on stderr, exit 2).
 */
export class PeerVersionError extends MissingPeerError {
  override name = "PeerVersionError";
  constructor(peer: string, use: string, needed: string, found: string) {
    super([peer], use);
    const pinned = PACKAGE_JSON.devDependencies?.[peer] ?? `${needed}`;
    this.message = `${use} needs ${peer} ${needed}.x, found ${found}: install ${peer}@${pinned} (npm install --save-dev ${peer}@${pinned})`;
  }
}

/** The major version a caret or exact range (`^5.9.3`, `5.9.3`) asks for; undefined for any other form. */
export function majorOfRange(range: string | undefined): string | undefined {
  return range?.match(/^\^?(\d+)\.\d+\.\d+$/)?.[1];
}

/** The installed version of `peer`: its package.json, found beside its entry when `exports` hides it. */
function installedVersion(peer: string): string | undefined {
  const read = (file: string) => {
    try {
      const json = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      return json.name === peer ? json.version : undefined;
    } catch {
      return undefined;
    }
  };
  const direct = resolves(`${peer}/package.json`);
  if (direct !== undefined) return read(direct);
  const entry = resolves(peer);
  for (let dir = entry && dirname(entry), hops = 0; dir && hops < 8; dir = dirname(dir), hops++) {
    if (existsSync(join(dir, "package.json"))) {
      const version = read(join(dir, "package.json"));
      if (version !== undefined) return version;
    }
  }
  return undefined;
}

/** PeerVersionError when `found` (an installed version of `peer`) is outside this package's peer range. */
export function checkPeerVersion(use: string, peer: string, found: string | undefined): void {
  const needed = majorOfRange(PACKAGE_JSON.peerDependencies?.[peer]);
  if (needed !== undefined && found !== undefined && found.split(".")[0] !== needed) throw new PeerVersionError(peer, use, needed, found);
}

/**
 * MissingPeerError naming every one of `peers` that is not installed (nothing when all are), or
 * PeerVersionError for the first installed at a major version this package's peer range excludes.
 */
export function requirePeers(use: string, ...peers: string[]): void {
  const missing = peers.filter((peer) => resolves(`${peer}/package.json`) === undefined && resolves(peer) === undefined);
  if (missing.length > 0) throw new MissingPeerError(missing, use);
  for (const peer of peers) checkPeerVersion(use, peer, installedVersion(peer));
}
