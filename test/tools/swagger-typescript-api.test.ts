/**
 * swagger-typescript-api (its fetch HttpClient) generates a client from the package's bundled
 * contract (bundle/openapi.json, `service-contract bundle`); the client type-checks strictly and
 * calls the reference correctly: a feed, the same with If-None-Match → 304 (its client rejects
 * every non-2xx with the response), the repository's issue events, GET /hooks.
 *
 * Not from `service-contract/spec`: on the multi-file source this tool names each component
 * after the title of the file it refers to, which is the component's own name, and writes
 * `export type ActivityEvent = ActivityEvent;` (42 circular aliases). The bundle inlines
 * response references, through which it reads no media type (it never parsed those bodies).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll } from "vitest";
import { repoRoot } from "../cli/run-cli.ts";
import { describeGeneratedClient, REPO, run, scratch } from "./clients/harness.ts";

const USAGE = `
import { Api } from "./gen/api.ts";

export async function run(baseUrl: string) {
  const api = new Api({ baseUrl });
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

let dir = "";
beforeAll(async () => {
  dir = scratch("swagger-typescript-api");
  const bin = join(repoRoot, "node_modules/.bin/swagger-typescript-api");
  await run(bin, ["generate", "-p", join(repoRoot, "bundle/openapi.json"), "-o", join(dir, "gen"), "-n", "api.ts"], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  writeFileSync(join(dir, "usage.ts"), USAGE);
}, 300_000);

describeGeneratedClient("swagger-typescript-api", () => dir);
