/**
 * kubb, run with its defaults — a config naming the input, the output and the plugins
 * (plugin-oas, plugin-ts, plugin-client), none of them given an option, so its axios client —
 * generates a client from the package's `./spec` export; everything it writes (every client, type
 * and barrel) type-checks strictly with the usage, which calls the reference correctly: a feed,
 * the same with If-None-Match → 304, the repository's issue events, GET /hooks.
 *
 * kubb names a schema file's type after the file as well as after its component; the contract
 * names each component as its file (`OauthTokenError`, `oauth-token-error.json`), so the two are
 * one type, where `OAuthTokenError` beside `OauthTokenError.ts` failed tsc's TS1149 (names
 * differing only in case; test/spec/derived-names.test.ts keeps it so).
 *
 * The generated functions return the body only; the usage reads status and headers where axios
 * leaves them, on kubb's own axios instance (`axiosInstance` of its client), and sets the base URL
 * with the client's `setConfig`.
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
  input: { path: ${JSON.stringify(SPEC)} },
  output: { path: "./gen" },
  plugins: [pluginOas(), pluginTs(), pluginClient()],
});
`;

const USAGE = `
import { isAxiosError, type AxiosResponse } from "axios";
import { axiosInstance, setConfig } from "@kubb/plugin-client/clients/axios";
import { listIssueEventsForRepo, listPublicEvents, listServiceHooks } from "./gen/index.ts";

export async function run(baseUrl: string) {
  setConfig({ baseURL: baseUrl });
  const seen: AxiosResponse[] = [];
  axiosInstance.interceptors.response.use(
    (res) => (seen.push(res), res),
    (error: unknown) => {
      if (isAxiosError(error) && error.response) seen.push(error.response);
      throw error;
    },
  );
  const feed = await listPublicEvents();
  const first = seen.at(-1)!;
  const etag = (first.headers["etag"] as string | undefined) ?? null;
  // axios rejects an answer outside 2xx: the 304 is the rejection's response.
  await listPublicEvents(undefined, { "If-None-Match": etag ?? "" }).catch((e: unknown) => {
    if (!isAxiosError(e)) throw e;
  });
  const again = seen.at(-1)!;
  const issueEvents = await listIssueEventsForRepo(${JSON.stringify(REPO.owner)}, ${JSON.stringify(REPO.repo)});
  const issueEventsStatus = seen.at(-1)!.status;
  const hooks = await listServiceHooks();
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
  dir = scratch("kubb");
  writeFileSync(join(dir, "kubb.config.ts"), CONFIG);
  await run(join(repoRoot, "node_modules/.bin/kubb"), ["generate", "--config", "kubb.config.ts"], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  writeFileSync(join(dir, "usage.ts"), USAGE);
}, ceiling(150_000));

describeGeneratedClient("kubb", () => dir);
