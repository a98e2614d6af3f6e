/**
 * swagger-typescript-api (its fetch HttpClient) generates clients that type-checks strictly and
 * call the reference correctly: a feed, the same with If-None-Match → 304 (its client rejects
 * every non-2xx with the response), the repository's issue events, GET /hooks.
 *
 * With its defaults (`-p`, `-o`, `-n`, nothing else) from the one-file bundle the package ships
 * (bundle/openapi.json). Not from `./spec`: two bugs of the tool's stand in the way, each
 * reproduced below on a two-file contract of a few lines:
 * - a component that is a `$ref` to a file whose name gives the component's own name
 *   (`Foo: {$ref: foo.json}`) becomes `export type Foo = Foo;` and the file's schema is never
 *   written: in the contract, every component is its file (`ActivityEvent`, `activity-event.json`),
 *   so 42 circular aliases (TS2456). Naming the files apart from their components would only
 *   give each type two names (`Foo = FooBody`);
 * - it reads no media type through a response `$ref: '#/components/responses/…'` (all 373 of the
 *   source's), so it parses no body unless told to. The bundle copies each response in place
 *   (generators/editions/bundle.ts).
 * So from `./spec`, the fallback (README, DECISIONS D-SPEC-NO-ID): a custom config whose hooks name
 * each file by its `title` (which is its component's name) and reuse that component, with
 * `--prefer-existing-schema-names-for-external-refs` (components that are only a `$ref` take the
 * file's content), and `baseApiParams: { format: "json" }` on the client. The types then have
 * exactly the names of `service-contract/types`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../repo-root.ts";
import { pascal } from "../spec/derived-names.ts";
import { describeGeneratedClient, REPO, run, scratch, SPEC } from "./clients/harness.ts";
import { ceiling } from "../ceilings.ts";

const usage = (apiConfig: string) => `
import { Api } from "./gen/api.ts";

export async function run(baseUrl: string) {
  const api = new Api(${apiConfig});
  const feed = await api.events.listPublicEvents();
  const etag = feed.headers.get("etag");
  // Its client rejects a non-2xx answer with the response itself.
  const again = await api.events.listPublicEvents(undefined, { headers: { "If-None-Match": etag ?? "" } }).catch((r: Response) => r);
  const issueEvents = await api.repos.listIssueEventsForRepo(${JSON.stringify(REPO.owner)}, ${JSON.stringify(REPO.repo)});
  const hooks = await api.hooks.listServiceHooks();
  return {
    feed: { status: feed.status, etag, ids: feed.data.map((e) => e.id) },
    notModified: { status: again.status },
    issueEvents: { status: issueEvents.status, events: issueEvents.data.map((e) => e.event) },
    hooks: { status: hooks.status, names: hooks.data.map((h) => h.name) },
  };
}
`;

/** Names each schema file's type by the file's title; refs are relative (`../user.json`, `schemas/user.json` from openapi.yaml). */
const NAMES_BY_TITLE = `
import { readFileSync } from "node:fs";
import { join } from "node:path";
const SCHEMAS = ${JSON.stringify(join(dirname(SPEC), "schemas"))};
const titleOf = (path) => JSON.parse(readFileSync(join(SCHEMAS, path.replace(/^(\\.\\.?\\/)+/, "").replace(/^schemas\\//, "")), "utf8")).title;
export default {
  hooks: {
    // Only a whole file is named by its title; a ref into one (\`hook.json#/$defs/…\`) keeps the tool's name.
    onFormatExternalTypeName: (name, ref) => (ref.externalUrlOrPath && !ref.ref.includes("#") ? titleOf(ref.externalUrlOrPath) : undefined),
    // A clash with a component of that name is that component (its \`$ref\` is this file).
    onFixDuplicateExternalTypeName: (name) => name,
  },
};
`;

const BIN = join(repoRoot, "node_modules/.bin/swagger-typescript-api");

async function generate(name: string, input: string, flags: string[], apiConfig: string): Promise<string> {
  const dir = scratch(name);
  writeFileSync(join(dir, "names-by-title.mjs"), NAMES_BY_TITLE);
  await run(BIN, ["generate", "-p", input, "-o", join(dir, "gen"), "-n", "api.ts", ...flags], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  writeFileSync(join(dir, "usage.ts"), usage(apiConfig));
  return dir;
}

const BUNDLE = join(repoRoot, "bundle/openapi.json");

/** The two bugs, on a contract of two files: a component that is its file, reached through a response `$ref` and in place. */
const REPRO = {
  "openapi.yaml": `openapi: 3.1.0
info: { title: repro, version: "1" }
paths:
  /by-ref:
    get:
      operationId: getByRef
      responses:
        "200": { $ref: "#/components/responses/Foo" }
  /in-place:
    get:
      operationId: getInPlace
      responses:
        "200":
          description: a foo
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Foo" }
components:
  responses:
    Foo:
      description: a foo
      content:
        application/json:
          schema: { $ref: "#/components/schemas/Foo" }
  schemas:
    Foo: { $ref: foo.json }
`,
  "foo.json": JSON.stringify({ type: "object", required: ["id"], properties: { id: { type: "string" } } }),
};

let fromBundle = "";
let fromSpec = "";
let defaultsFromSpec = "";
let repro = "";
beforeAll(async () => {
  repro = scratch("swagger-typescript-api-repro");
  for (const [name, text] of Object.entries(REPRO)) writeFileSync(join(repro, name), text);
  [fromBundle, fromSpec, defaultsFromSpec] = await Promise.all([
    generate("swagger-typescript-api-bundle", BUNDLE, [], "{ baseUrl }"),
    generate("swagger-typescript-api", SPEC, ["--prefer-existing-schema-names-for-external-refs", "--custom-config=names-by-title.mjs"], `{ baseUrl, baseApiParams: { format: "json" } }`),
    generate("swagger-typescript-api-defaults", SPEC, [], "{ baseUrl }"),
    run(BIN, ["generate", "-p", join(repro, "openapi.yaml"), "-o", join(repro, "gen"), "-n", "api.ts"], { cwd: repro }),
  ]);
}, ceiling(150_000));

describe("swagger-typescript-api's bugs, reproduced (the reason for the fallback from ./spec)", () => {
  it("a component that is a $ref to a file of its own name becomes an alias of itself, the file's schema unwritten", () => {
    const code = readFileSync(join(repro, "gen/api.ts"), "utf8");
    expect(code).toMatch(/^export type Foo = Foo;$/m);
    expect(code).not.toMatch(/^export interface Foo\b/m);
  });

  it("a response reached through $ref is read without its media type: its body is not parsed", () => {
    const code = readFileSync(join(repro, "gen/api.ts"), "utf8");
    const request = (operation: string) => code.slice(code.indexOf(`${operation}: (`), code.indexOf("}),", code.indexOf(`${operation}: (`)));
    expect(request("getInPlace")).toContain('format: "json"');
    expect(request("getByRef")).not.toContain("format:");
  });

  it("from ./spec with its defaults, the first bug is the only circular alias: one per component that is its file", () => {
    const code = readFileSync(join(defaultsFromSpec, "gen/api.ts"), "utf8");
    const aliases = [...code.matchAll(/^export type (\w+) = \1;$/gm)].map((m) => m[1]).sort();
    const schemas = (parse(readFileSync(SPEC, "utf8")) as { components: { schemas: Record<string, { $ref?: string }> } }).components.schemas;
    const ownFile = Object.entries(schemas).filter(([name, s]) => s.$ref && !s.$ref.includes("#") && pascal(s.$ref.replace(/^.*\//, "").replace(/\.json$/, "")) === name);
    expect(aliases).toEqual(ownFile.map(([name]) => name).sort());
    expect(aliases.length).toBeGreaterThan(30);
  });
});

it("names each schema's type from service-contract/spec as the component it is, with no circular alias", () => {
  const code = readFileSync(join(fromSpec, "gen/api.ts"), "utf8");
  expect(code.match(/^export type (\w+) = \1;$/gm) ?? []).toEqual([]);
  const components = Object.keys((parse(readFileSync(SPEC, "utf8")) as { components: { schemas: object } }).components.schemas);
  const declared = new Set([...code.matchAll(/^export (?:interface|type|enum) (\w+)\b/gm)].map((m) => m[1]));
  expect(components.filter((name) => !declared.has(name))).toEqual([]);
});

describeGeneratedClient("swagger-typescript-api with its defaults, from bundle/openapi.json", () => fromBundle);
describeGeneratedClient("swagger-typescript-api from service-contract/spec, with the fallback config", () => fromSpec);
