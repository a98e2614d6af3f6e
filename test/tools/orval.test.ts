/**
 * orval (its fetch client) generates a client from the package's `./spec` export; the client
 * type-checks strictly and calls the reference correctly: a feed, the same with If-None-Match →
 * 304, the repository's issue events, GET /hooks.
 *
 * Two settings, both orval's documented ones:
 * - `schemas`: the models in a folder of their own. orval reads each schema file as a document of
 *   its own and names its types after the file (`activity/push.json`, `activity-payloads/push.json`
 *   and `webhooks/push.json` are all `Push`); in the default single file they clash (TS2300), in
 *   the models folder each document gets a subfolder and the clashing imports are aliased.
 * - `mutator`: its fetch client requests paths (`/events`) without a host, and a base URL can only
 *   be fixed at generation time; the mutator adds the running reference's address and returns
 *   what orval's own fetch function returns (`{data, status, headers}`).
 *
 * What the contract does for orval (DECISIONS, D-SPEC-NO-ID): no `$ref` into another file's
 * `properties` (orval imports a type it never writes), and an object with optional properties
 * gives "every value is a string" in an `allOf` beside `properties` (orval writes the index
 * signature into the same type literal as the properties, which strict tsc rejects: TS2411).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll } from "vitest";
import { repoRoot } from "../repo-root.ts";
import { describeGeneratedClient, REPO, run, scratch, SPEC } from "./clients/harness.ts";
import { ceiling } from "../ceilings.ts";

const CONFIG = `
export default {
  contract: {
    input: { target: ${JSON.stringify(SPEC)} },
    output: {
      target: "./gen/api.ts",
      schemas: "./gen/model",
      client: "fetch",
      mode: "single",
      override: { mutator: { path: "./fetcher.ts", name: "customFetch" } },
    },
  },
};
`;

const FETCHER = `
let baseUrl = "";
export function setBaseUrl(url: string): void {
  baseUrl = url;
}
/** What orval's fetch client does without a mutator, from baseUrl. */
export async function customFetch<T>(url: string, init: RequestInit): Promise<T> {
  const res = await fetch(baseUrl + url, init);
  const body = [204, 205, 304].includes(res.status) ? null : await res.text();
  return { data: body ? JSON.parse(body) : {}, status: res.status, headers: res.headers } as T;
}
`;

const USAGE = `
import { listIssueEventsForRepo, listPublicEvents, listServiceHooks } from "./gen/api.ts";
import { setBaseUrl } from "./fetcher.ts";

export async function run(baseUrl: string) {
  setBaseUrl(baseUrl);
  const feed = await listPublicEvents();
  const etag = feed.headers.get("etag");
  const again = await listPublicEvents(undefined, { headers: { "If-None-Match": etag ?? "" } });
  const issueEvents = await listIssueEventsForRepo(${JSON.stringify(REPO.owner)}, ${JSON.stringify(REPO.repo)});
  const hooks = await listServiceHooks();
  // The answers are unions over the declared statuses; the status narrows each to its body.
  return {
    feed: { status: feed.status, etag, ids: feed.status === 200 ? feed.data.map((e) => e.id) : [] },
    notModified: { status: again.status },
    issueEvents: { status: issueEvents.status, events: issueEvents.status === 200 ? issueEvents.data.map((e) => e.event) : [] },
    hooks: { status: hooks.status, names: hooks.status === 200 ? hooks.data.map((h) => h.name) : [] },
  };
}
`;

let dir = "";
beforeAll(async () => {
  dir = scratch("orval");
  writeFileSync(join(dir, "orval.config.ts"), CONFIG);
  writeFileSync(join(dir, "fetcher.ts"), FETCHER);
  await run(join(repoRoot, "node_modules/.bin/orval"), ["--config", "orval.config.ts"], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  writeFileSync(join(dir, "usage.ts"), USAGE);
}, ceiling(150_000));

describeGeneratedClient("orval", () => dir);
