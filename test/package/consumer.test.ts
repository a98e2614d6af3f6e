/**
 * The package as another project gets it: `npm pack` (which builds dist/ through prepack), then
 * `npm install` of the tarball into an empty ESM project, exactly as a user would. From there:
 * every export loads in plain Node (no TypeScript loader), the installed CLI runs from compiled
 * code and defaults to the package's own contract, a strict `nodenext` TypeScript project that
 * emits type-checks against the declarations and runs, including a client and server generated
 * into its own tree with `generate --out`, and the install sizes stay within budget: the light
 * `@service-contract/validators` ≤ 5 MB, the toolkit without its optional peers ≤ 120 MB.
 *
 * The toolkit's install is the run's one (packed.ts installedToolkit, shared with the README's
 * walk-throughs); this file installs the light package into an empty project of its own, and works
 * in a copy of the toolkit's project for what it adds there (the light package, TypeScript): three
 * installs (npm's cache, --prefer-offline) of the run's one pack.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../repo-root.ts";
import { ceiling } from "../ceilings.ts";
import { freePort } from "../../cli/free-port.ts";
import { copyProject, emptyProject, install, installedMb, installedToolkit, npmEnv, ok, packedTarballs, sh, type InstalledToolkit } from "./packed.ts";

const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string; devDependencies: Record<string, string> };
const work = mkdtempSync(join(tmpdir(), "sc-consumer-"));
const light = join(work, "light");
/** A copy of the run's installed toolkit project, which this file installs more into (beforeAll). */
let full = "";
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  if (full) rmSync(full, { recursive: true, force: true });
});

const installs: Record<"light" | "full", { mb: number; output: string }> = {} as never;
let toolkitTgz = "";
let lightTgz = "";
/** The run's project with the toolkit installed and nothing else: only read here. */
let toolkitProject: InstalledToolkit;

beforeAll(async () => {
  ({ toolkit: toolkitTgz, validators: lightTgz } = await packedTarballs());
  expect(toolkitTgz).not.toBe(lightTgz);

  emptyProject(light);
  const [l, toolkit] = await Promise.all([install(light, lightTgz), installedToolkit()]);
  toolkitProject = toolkit;
  installs.light = { mb: await installedMb(light), output: l.stdout + l.stderr };
  installs.full = { mb: toolkit.mb, output: toolkit.output };
  full = copyProject(toolkit.project, `consumer-${process.pid}`);
  writeFileSync(join(full, "browser-profile.yaml"), "users:\n  - login: octocat\nauthorize:\n  driver: browser\n");
  process.stdout.write(
    `install sizes (du -sk node_modules): @service-contract/validators ${installs.light.mb.toFixed(1)} MB; ` +
      `service-contract without optional peers ${installs.full.mb.toFixed(1)} MB\n`,
  );
}, ceiling(600_000));

describe("the tarballs", () => {
  it("hold dist/ and the contract, and no sources, tests, benchmarks or CI files", async () => {
    const { stdout } = await ok("tar", ["tzf", toolkitTgz], work);
    const files = stdout.trim().split("\n").map((f) => f.replace(/^package\//, ""));
    expect(files).toContain("dist/cli/main.js");
    expect(files).toContain("dist/generated/validators/index.js");
    expect(files).toContain("spec/openapi.yaml");
    // The contract for other tools and languages (service-contract bundle).
    expect(files).toEqual(expect.arrayContaining(["bundle/openapi.json", "bundle/openapi-3.0.json", "bundle/json-schema/index.json", "bundle/json-schema/draft-07/webhooks/push.json"]));
    expect(files.filter((f) => /^(test|bench|\.ci|dist\/bench|dist\/test)\//.test(f))).toEqual([]);
    // TypeScript sources only where they are examples to read and copy (conformance/examples/, also compiled in dist/).
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && !f.startsWith("conformance/examples/"))).toEqual([]);
    expect(files).toContain("dist/conformance/examples/webhook-receiver.js");
    const lightFiles = (await ok("tar", ["tzf", lightTgz], work)).stdout.trim().split("\n").sort();
    // Every compiled function's module (one per function, loaded on first use), and nothing else in those folders.
    const compiled = (family: string) => readdirSync(join(repoRoot, "generated/validators", family)).map((n) => `package/dist/validators/${family}/${n}`);
    const functions = [...compiled("compiled-bodies"), ...compiled("compiled-params")];
    expect(functions.length).toBeGreaterThan(100);
    expect(lightFiles.filter((f) => f.startsWith("package/dist/validators/compiled-") && f.endsWith(".cjs")).sort()).toEqual(functions.sort());
    expect(lightFiles.filter((f) => !functions.includes(f))).toEqual([
      "package/README.md",
      "package/dist/types.d.ts",
      "package/dist/types.js",
      "package/dist/validators/compiled-bodies-explain.js",
      "package/dist/validators/compiled-params-explain.js",
      "package/dist/validators/index.d.ts",
      "package/dist/validators/index.js",
      "package/dist/validators/tables.js",
      "package/package.json",
    ]);
  });
});

describe("installed sizes and engines", () => {
  // 6 MB since issue 41 (5.7 measured; 4.7 before): the validators are compiled twice, once to
  // stop at the first error (the verdict, linear in the value) and once with allErrors to explain
  // a small failed value in full (compiled-*-explain.js, 0.96 MB). 5.8 measured since issue 43:
  // one file per compiled function (4 KB blocks), less the schema text no code read.
  it("validation alone costs at most 6 MB, with ajv and ajv-formats its only dependencies", () => {
    expect(installs.light.mb).toBeLessThanOrEqual(6);
    const lock = JSON.parse(readFileSync(join(light, "package-lock.json"), "utf8")) as { packages: Record<string, unknown> };
    const top = Object.keys(lock.packages).filter((p) => /^node_modules\/(@[^/]+\/)?[^/@]+$/.test(p)).map((p) => p.slice("node_modules/".length));
    expect(top.sort()).toEqual(["@service-contract/validators", "ajv", "ajv-formats", "fast-deep-equal", "fast-uri", "json-schema-traverse", "require-from-string"]);
  });

  // 123 MB since issues 41 and 42 (120.5 measured, 2026-12-07; under 120 before): refa (diff's
  // pattern languages, 1.7 MB with its parser) and the validators' explain modules (1.1 MB).
  it("the toolkit without its optional peers costs at most 123 MB and installs none of them", () => {
    expect(installs.full.mb).toBeLessThanOrEqual(123);
    for (const peer of ["@stoplight/prism-cli", "@redocly/cli", "playwright-core", "openapi-typescript", "typescript"]) {
      expect(() => readFileSync(join(toolkitProject.project, "node_modules", peer, "package.json")), peer).toThrow();
    }
  });

  it("npm warns about no engine on this Node", () => {
    expect(installs.light.output).not.toContain("EBADENGINE");
    expect(installs.full.output).not.toContain("EBADENGINE");
  });
});

describe("plain Node imports every export", () => {
  it("of the toolkit and of the light package", async () => {
    const script = `
      import { readFileSync } from "node:fs";
      const push = JSON.parse(readFileSync(new URL(import.meta.resolve("service-contract/spec/examples/webhooks/push/valid-branch-push.json")), "utf8"));
      const validators = await import("service-contract/validators");
      const lightValidators = await import("@service-contract/validators");
      const exported = {
        validators: typeof validators.validateWebhook,
        types: Object.keys(await import("service-contract/types")).length,
        client: typeof (await import("service-contract/client")).ServiceClient,
        server: typeof (await import("service-contract/server")).registerRoutes,
        conformance: typeof (await import("service-contract/conformance")).runSuite,
        runtimeClient: typeof (await import("service-contract/runtime/client")).WebhookReceiver,
        runtimeServer: typeof (await import("service-contract/runtime/server")).registerRouteTable,
        spec: readFileSync(new URL(import.meta.resolve("service-contract/spec")), "utf8").startsWith("openapi: 3.1"),
        light: typeof lightValidators.validateWebhook,
        lightTypes: Object.keys(await import("@service-contract/validators/types")).length,
      };
      const verdicts = [validators, lightValidators].map((v) => [v.validateWebhook("push", push).valid, v.validateWebhook("push", { ...push, after: "x" }).errors?.[0]?.path]);
      console.log(JSON.stringify({ exported, verdicts }));`;
    // The toolkit's project gets the light package too, as a user of both would (the sizes above
    // were measured before).
    await ok("npm", ["install", "--prefer-offline", lightTgz], full);
    const { stdout } = await ok(process.execPath, ["--input-type=module", "-e", script], full);
    expect(JSON.parse(stdout)).toEqual({
      exported: {
        validators: "function",
        types: 0,
        client: "function",
        server: "function",
        conformance: "function",
        runtimeClient: "function",
        runtimeServer: "function",
        spec: true,
        light: "function",
        lightTypes: 0,
      },
      verdicts: [
        [true, "/after"],
        [true, "/after"],
      ],
    });
  }, ceiling(60_000));

  it("the light package alone validates JSON, and names fast-xml-parser (an optional peer) for an XML body", async () => {
    const script = `
      import { validateResponse, validateSchema } from "@service-contract/validators";
      let xml;
      try {
        validateResponse("createAccessToken", 200, "<OAuth/>", { mediaType: "application/xml" });
      } catch (error) {
        xml = error.message;
      }
      console.log(JSON.stringify({ user: validateSchema("User", { login: 1 }).valid, json: validateResponse("listPublicEvents", 200, "[]").valid, xml }));`;
    const { stdout } = await ok(process.execPath, ["--input-type=module", "-e", script], light);
    expect(JSON.parse(stdout)).toEqual({
      user: false,
      json: true,
      xml: "validating an XML body needs fast-xml-parser: install it (npm install fast-xml-parser) to use this",
    });
  });
});

describe("the installed CLI", () => {
  const cli = (args: string[]) => sh(join(full, "node_modules/.bin/service-contract"), args, full);

  it("prints its version and validates with the package's own contract", async () => {
    expect(await cli(["--version"])).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    const example = join(full, "node_modules/service-contract/spec/examples/webhooks/push/valid-branch-push.json");
    const validated = await cli(["validate", "--event", "push", example]);
    expect(validated.code, validated.stderr).toBe(0);
  });

  it("serves the reference server from the compiled code: migrations, demo seed and /docs found in the package", async () => {
    const child = spawn(join(full, "node_modules/.bin/service-contract"), ["serve", "--port", "0", "--auth-port", "0", "--seed", "demo", "--no-history", "--quiet", "--data-dir", join(work, "data")], {
      cwd: full,
      env: npmEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      const ready = await new Promise<{ api: string }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`serve: no ready line within 60 s; stderr:\n${stderr}`)), ceiling(60_000));
        createInterface({ input: child.stdout }).once("line", (line) => {
          clearTimeout(timer);
          resolve(JSON.parse(line) as { api: string });
        });
        void exited.then((code) => reject(new Error(`serve exited (${code}) before it was ready; stderr:\n${stderr}`)));
      });
      const events = await fetch(`${ready.api}/repos/octocat/hello-world/events`);
      expect(events.status).toBe(200);
      expect(Array.isArray(await events.json())).toBe(true);
      const docs = await fetch(`${ready.api}/docs`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain("swagger-ui");
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  }, ceiling(90_000));

  it("ships the walk-throughs' examples: the receiver runs compiled from the package and passes the receiver suite; the OAuth client's profile is there", async () => {
    const pkgDir = join(full, "node_modules/service-contract");
    expect(existsSync(join(pkgDir, "conformance/examples/oauth-client/profile.yaml"))).toBe(true);
    expect(existsSync(join(pkgDir, "dist/conformance/examples/oauth-client/client.js"))).toBe(true);
    const port = await freePort();
    const receiver = spawn(process.execPath, [join(pkgDir, "dist/conformance/examples/webhook-receiver.js")], {
      cwd: full,
      env: { ...npmEnv, PORT: String(port), WEBHOOK_SECRET: "s3cret" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => receiver.on("exit", resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: receiver.stdout }).on("line", (line) => {
          if (line.startsWith("Receiving webhooks at")) resolve();
        });
        void exited.then((code) => reject(new Error(`the example receiver exited (${code}) before it listened`)));
      });
      const run = await cli(["conformance", "--receiver", `http://127.0.0.1:${port}/hook`, "--secret", "s3cret", "--reporter", "console"]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
    } finally {
      receiver.kill("SIGTERM");
      await exited;
    }
  }, ceiling(90_000));

  it("conformance --list prints the rule table and finds nothing wrong with it (no reference sources to look for)", async () => {
    const run = await cli(["conformance", "--list"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\n\d+ rules: \d+ enforced by cases, \d+ not checkable from outside \(with the reason\), \d+ gaps/);
  });

  it.each([
    [["mock", "--port", "0"], "@stoplight/prism-cli"],
    [["lint"], "@redocly/cli"],
    [["generate", "--out", "src/contract"], "openapi-typescript and typescript"],
    [["conformance", "--base-url", "http://127.0.0.1:9", "--auth-url", "http://127.0.0.1:9", "--profile", "browser-profile.yaml"], "playwright-core"],
  ])("%j without its optional peer: one line naming what to install, exit 2", async (args, peer) => {
    const run = await cli(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(new RegExp(`needs ${peer.replace(/[/.]/g, "\\$&")}, .*optional peer.*: install .*npm install --save-dev `));
  });
});

describe("a strict nodenext TypeScript project that emits", () => {
  beforeAll(async () => {
    const dev = ["typescript", "openapi-typescript", "@types/node"].map((name) => `${name}@${pkg.devDependencies[name]}`);
    await ok("npm", ["install", "--prefer-offline", "--save-dev", ...dev], full);
    writeFileSync(
      join(full, "tsconfig.json"),
      JSON.stringify({
        // A Node 20 project's libraries (@tsconfig/node20's: ES2023), without the DOM's: the declarations and
        // the generated client must need nothing a Node-only project lacks; and lib.dom.d.ts, 39,000
        // lines to parse and check, was a fifth of this tsc's CPU.
        compilerOptions: { target: "ES2022", lib: ["ES2023"], module: "nodenext", moduleResolution: "nodenext", strict: true, outDir: "dist", rootDir: "src", types: ["node"] },
        include: ["src"],
      }),
    );
  }, ceiling(120_000));

  it("generates into its own tree from the package's contract (--check in a consumer tree: test/generators/out-folder.test.ts)", async () => {
    const generated = await sh(join(full, "node_modules/.bin/service-contract"), ["generate", "--out", "src/contract"], full);
    expect(generated.stderr).toBe("");
    expect(generated.code).toBe(0);
    expect(readFileSync(join(full, "src/contract/client/client.ts"), "utf8")).toMatch(
      /^\/\/ Generated by service-contract from service-contract\/spec\/openapi\.yaml — do not edit\.\n[^]*from "service-contract\/runtime\/client";/,
    );
  }, ceiling(120_000));

  it("type-checks against the declarations, emits JavaScript, and runs", async () => {
    writeFileSync(
      join(full, "src/main.ts"),
      `import { readFileSync } from "node:fs";
import Fastify from "fastify";
import { validateWebhook } from "service-contract/validators";
import type { PushWebhookPayload } from "service-contract/types";
import { ServiceClient as PackagedClient } from "service-contract/client";
import type { HostHandlers } from "service-contract/server";
import { runSuite, type Case } from "service-contract/conformance";
import { WebhookReceiver } from "service-contract/runtime/client";
import { validateWebhook as lightValidate } from "@service-contract/validators";
import type { PushWebhookPayload as LightPush } from "@service-contract/validators/types";
import { ServiceClient } from "./contract/client/index.js";
import { registerRoutes } from "./contract/server/index.js";
import { validateWebhook as generatedValidate } from "./contract/validators/index.js";

const push: unknown = JSON.parse(readFileSync(new URL(import.meta.resolve("service-contract/spec/examples/webhooks/push/valid-branch-push.json")), "utf8"));
const checked = validateWebhook("push", push);
const ref: string = checked.valid ? (checked.value satisfies PushWebhookPayload).ref : "invalid";
const light = lightValidate("push", push);
const lightRef: string = light.valid ? (light.value satisfies LightPush).after : "invalid";
const generated = generatedValidate("push", push);
// @ts-expect-error a push payload's ref is a string, never a number
const wrong: number = generated.valid ? generated.value.ref : 0;

const handlers: Partial<HostHandlers<"api">> = {};
const cases: Case[] = [];
void [PackagedClient, WebhookReceiver, runSuite, handlers, cases, wrong];

const app = Fastify();
const rate = { "X-RateLimit-Limit": 60, "X-RateLimit-Remaining": 59, "X-RateLimit-Reset": 1700000000 };
registerRoutes(app, { listRepoEvents: () => ({ status: 200, headers: { ETag: '"e1"', "X-Poll-Interval": 60, ...rate }, body: [] }) }, { host: "api" });
const address = await app.listen({ port: 0, host: "127.0.0.1" });
const reply = await new ServiceClient({ baseUrl: address }).listRepoEvents({ path: { owner: "octocat", repo: "hello" } });
await app.close();
console.log(JSON.stringify({ ref, lightRef: lightRef.length, status: reply.status, etag: reply.status === 200 ? reply.headers.ETag : null }));
`,
    );
    const tsc = await sh(process.execPath, [join(full, "node_modules/typescript/bin/tsc"), "-p", "."], full);
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
    // The generated validators are JavaScript with declarations, which tsc does not copy into
    // outDir (`generate --help` says so): the one step such a project adds to its build, the
    // folder with its subfolders of compiled functions (loaded when first used, so a missing one
    // would fail only at the validation that needs it: this run validates a push payload).
    cpSync(join(full, "src/contract/validators"), join(full, "dist/contract/validators"), { recursive: true, filter: (path) => !path.endsWith(".d.ts") });
    const run = await ok(process.execPath, ["dist/main.js"], full);
    expect(JSON.parse(run.stdout)).toEqual({ ref: "refs/heads/changes", lightRef: 40, status: 200, etag: '"e1"' });
  }, ceiling(120_000));
});
