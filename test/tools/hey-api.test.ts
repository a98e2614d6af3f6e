/**
 * @hey-api/openapi-ts, run with its defaults (`-i` and `-o`, nothing else: its fetch client),
 * generates a client from the package's `./spec` export; the client type-checks strictly and
 * calls the reference correctly: a feed, the same with If-None-Match → 304, the repository's
 * issue events, GET /hooks.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll } from "vitest";
import { repoRoot } from "../repo-root.ts";
import { describeGeneratedClient, REPO, run, scratch, SPEC } from "./clients/harness.ts";
import { ceiling } from "../ceilings.ts";

const USAGE = `
import { createClient } from "./client/client/index.ts";
import { listIssueEventsForRepo, listPublicEvents, listServiceHooks } from "./client/sdk.gen.ts";

export async function run(baseUrl: string) {
  const client = createClient({ baseUrl });
  const feed = await listPublicEvents({ client });
  const etag = feed.response.headers.get("etag");
  const again = await listPublicEvents({ client, headers: { "If-None-Match": etag ?? "" } });
  const issueEvents = await listIssueEventsForRepo({ client, path: ${JSON.stringify(REPO)} });
  const hooks = await listServiceHooks({ client });
  return {
    feed: { status: feed.response.status, etag, ids: (feed.data ?? []).map((e) => e.id) },
    notModified: { status: again.response.status },
    issueEvents: { status: issueEvents.response.status, events: (issueEvents.data ?? []).map((e) => e.event) },
    hooks: { status: hooks.response.status, names: (hooks.data ?? []).map((h) => h.name) },
  };
}
`;

let dir = "";
beforeAll(async () => {
  dir = scratch("hey-api");
  await run(join(repoRoot, "node_modules/.bin/openapi-ts"), ["-i", SPEC, "-o", join(dir, "client"), "--no-log-file", "--silent"], { cwd: dir });
  writeFileSync(join(dir, "usage.ts"), USAGE);
}, ceiling(90_000));

describeGeneratedClient("@hey-api/openapi-ts", () => dir);
