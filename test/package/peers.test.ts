/**
 * The optional peers (Prism, Redocly, playwright-core, openapi-typescript with TypeScript): each
 * is optional in peerDependenciesMeta, so installing the toolkit does not pull it in, and a
 * development dependency at an exact version inside the peer range, so a clone's `npm ci` has
 * it; a missing one is reported in one line naming what to install.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MissingPeerError, PeerVersionError, checkPeerVersion, majorOfRange, requirePeers, resolvePeer } from "../../generators/package-files.ts";

const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

describe("optional peers", () => {
  it.each(Object.entries(pkg.peerDependencies))("%s is optional, not a dependency, and a pinned development dependency inside %s", (name, range) => {
    expect(pkg.peerDependenciesMeta[name]).toEqual({ optional: true });
    expect(pkg.dependencies[name]).toBeUndefined();
    const pinned = pkg.devDependencies[name];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(range).toBe(`^${pinned}`);
  });

  it("a missing peer is one line naming the package, its tested version and the command", () => {
    const error = (() => {
      try {
        requirePeers("generate (its types target)", "openapi-typescript", "no-such-package-sc13");
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(MissingPeerError);
    expect((error as MissingPeerError).peers).toEqual(["no-such-package-sc13"]);
    expect((error as Error).message).toBe(
      "generate (its types target) needs no-such-package-sc13, an optional peer dependency of service-contract: install it (npm install --save-dev no-such-package-sc13@latest) to use this",
    );
    expect(() => resolvePeer("no-such-package-sc13", "mock", "package.json")).toThrow(/^mock needs no-such-package-sc13, /);
  });

  it("names every missing peer at the version this package pins", () => {
    const message = new MissingPeerError(["openapi-typescript", "typescript"], "generate").message;
    expect(message).toBe(
      `generate needs openapi-typescript and typescript, optional peer dependencies of service-contract: install them (npm install --save-dev openapi-typescript@${pkg.devDependencies["openapi-typescript"]} typescript@${pkg.devDependencies.typescript}) to use this`,
    );
    expect(message).not.toContain("\n");
  });

  it("resolves an installed peer from the package", () => {
    expect(resolvePeer("@stoplight/prism-cli", "mock", "package.json")).toMatch(/node_modules\/@stoplight\/prism-cli\/package\.json$/);
    expect(() => requirePeers("generate", "openapi-typescript", "typescript", "ts-morph")).not.toThrow();
  });

  it("a peer installed at another major version is one line saying which is needed and which was found", () => {
    // `npm i -D typescript` now installs TypeScript 7, which openapi-typescript cannot run on.
    const error = (() => {
      try {
        checkPeerVersion("generate (its types target)", "typescript", "7.0.2");
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(PeerVersionError);
    expect(error).toBeInstanceOf(MissingPeerError);
    expect((error as Error).message).toBe(
      `generate (its types target) needs typescript 5.x, found 7.0.2: install typescript@${pkg.devDependencies.typescript} (npm install --save-dev typescript@${pkg.devDependencies.typescript})`,
    );
    expect(() => checkPeerVersion("generate", "typescript", "5.4.0")).not.toThrow();
    expect(() => checkPeerVersion("generate", "openapi-typescript", "8.0.0")).toThrow(/needs openapi-typescript 7\.x, found 8\.0\.0/);
    // The peers installed here (the pinned development dependencies) pass.
    expect(() => requirePeers("generate (its types target)", "openapi-typescript", "typescript")).not.toThrow();
    expect([majorOfRange("^5.9.3"), majorOfRange("5.9.3"), majorOfRange(">=5"), majorOfRange(undefined)]).toEqual(["5", "5", undefined, undefined]);
  });
});
