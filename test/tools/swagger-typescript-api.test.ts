/**
 * swagger-typescript-api (its fetch HttpClient) generates a client from the package's `./spec`
 * export that type-checks strictly and calls the reference correctly: a feed, the same with
 * If-None-Match → 304 (its client rejects every non-2xx with the response), the repository's
 * issue events, GET /hooks.
 *
 * From `service-contract/spec`, the tool needs three of its own settings (DECISIONS,
 * D-SPEC-NO-ID); the source cannot be shaped around it without renaming its files:
 * - It names the type of a schema file after the file's name, not its title (a title changes
 *   nothing): `activity-event.json` → `ActivityEvent`, the name of the component that refers to
 *   it, hence `export type ActivityEvent = ActivityEvent;` (42 circular aliases); and
 *   `activity/page_build.json` → `PageBuild`, the name of another file's component, hence a
 *   `PageBuildEvent` typed as the PageBuild resource. Our layout (`webhooks/<event>.json`, found
 *   from X-Service-Event) gives three files one name per event. So: a custom config whose hooks
 *   name each file by its `title` (which is its component's name) and reuse that component, with
 *   `--prefer-existing-schema-names-for-external-refs` (components that are only a `$ref` take
 *   the file's content). The types then have exactly the names of `service-contract/types`.
 * - `baseApiParams: { format: "json" }` on the client: it reads no media type through a response
 *   `$ref: '#/components/responses/…'` (all 373 of the source's), so it parses no body unless told
 *   to. The bundle copies each response in place, so its client needs neither setting.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { beforeAll, expect, it } from "vitest";
import { repoRoot } from "../repo-root.ts";
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

// Only the source: a client from bundle/openapi.json (which needs neither setting below) was a
// second generation, type-check and reference server, time the suite cannot spare; the bundle
// is read by Spectral, Redocly and swagger-parser (test/tools/).
let fromSpec = "";
beforeAll(async () => {
  fromSpec = await generate("swagger-typescript-api", SPEC, ["--prefer-existing-schema-names-for-external-refs", "--custom-config=names-by-title.mjs"], `{ baseUrl, baseApiParams: { format: "json" } }`);
}, ceiling(150_000));

it("names each schema's type from service-contract/spec as the component it is, with no circular alias", () => {
  const code = readFileSync(join(fromSpec, "gen/api.ts"), "utf8");
  expect(code.match(/^export type (\w+) = \1;$/gm) ?? []).toEqual([]);
  const components = Object.keys((parse(readFileSync(SPEC, "utf8")) as { components: { schemas: object } }).components.schemas);
  const declared = new Set([...code.matchAll(/^export (?:interface|type|enum) (\w+)\b/gm)].map((m) => m[1]));
  expect(components.filter((name) => !declared.has(name))).toEqual([]);
});

describeGeneratedClient("swagger-typescript-api from service-contract/spec", () => fromSpec);
