/**
 * kubb (plugin-oas, plugin-ts, plugin-client with its fetch client) generates a client from the
 * package's `./spec` export; the client type-checks strictly and calls the reference correctly:
 * a feed, the same with If-None-Match → 304, the repository's issue events, GET /hooks. The
 * generated functions return the body only, so the usage passes kubb's documented `client`
 * option: its own fetch client, recording status and headers.
 *
 * Checked strictly: every generated client (with the types it imports) and the usage. Not the
 * barrels (gen/index.ts, gen/types/index.ts):
 * kubb names a schema file's type from the file name as well as from its component, so
 * `oauth-token-error.json` gives types/OauthTokenError.ts beside types/OAuthTokenError.ts (the
 * same type twice), and the barrel, importing both, fails tsc's TS1149 (names differing only in
 * case). A known gap, left for the contract's OAuth error titles to settle.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll } from "vitest";
import { repoRoot } from "../repo-root.ts";
import { describeGeneratedClient, REPO, run, scratch, SPEC } from "./clients/harness.ts";
import { ceiling } from "../ceilings.ts";

const CONFIG = `
import { defineConfig } from "@kubb/core";
import { pluginOas } from "@kubb/plugin-oas";
import { pluginTs } from "@kubb/plugin-ts";
import { pluginClient } from "@kubb/plugin-client";

export default defineConfig({
  root: ".",
  input: { path: ${JSON.stringify(SPEC)} },
  output: { path: "./gen", clean: true },
  plugins: [pluginOas(), pluginTs(), pluginClient({ client: "fetch" })],
});
`;

const USAGE = `
import fetchClient, { type Client } from "@kubb/plugin-client/clients/fetch";
import { listIssueEventsForRepo } from "./gen/clients/listIssueEventsForRepo.ts";
import { listPublicEvents } from "./gen/clients/listPublicEvents.ts";
import { listServiceHooks } from "./gen/clients/listServiceHooks.ts";

export async function run(baseUrl: string) {
  const seen: { status: number; headers: Headers }[] = [];
  const client: Client = async (config) => {
    const res = await fetchClient({ ...config, baseURL: baseUrl });
    seen.push({ status: res.status, headers: res.headers });
    return res as never;
  };
  const feed = await listPublicEvents(undefined, undefined, { client });
  const first = seen.at(-1)!;
  const etag = first.headers.get("etag");
  await listPublicEvents(undefined, { "If-None-Match": etag ?? "" }, { client });
  const again = seen.at(-1)!;
  const issueEvents = await listIssueEventsForRepo(${JSON.stringify(REPO.owner)}, ${JSON.stringify(REPO.repo)}, undefined, { client });
  const issueEventsStatus = seen.at(-1)!.status;
  const hooks = await listServiceHooks({ client });
  return {
    feed: { status: first.status, etag, ids: feed.map((e) => e.id) },
    notModified: { status: again.status },
    issueEvents: { status: issueEventsStatus, events: issueEvents.map((e) => e.event) },
    hooks: { status: seen.at(-1)!.status, names: hooks.map((h) => h.name) },
  };
}
`;

let dir = "";
beforeAll(async () => {
  dir = scratch("kubb", ["usage.ts", "gen/clients/*.ts"]);
  writeFileSync(join(dir, "kubb.config.ts"), CONFIG);
  await run(join(repoRoot, "node_modules/.bin/kubb"), ["generate", "--config", "kubb.config.ts"], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  writeFileSync(join(dir, "usage.ts"), USAGE);
}, ceiling(150_000));

describeGeneratedClient("kubb", () => dir);
