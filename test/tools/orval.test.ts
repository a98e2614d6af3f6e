/**
 * orval 8 (the current major), run with its defaults — its axios client, every type in the one
 * output file — generates a client that type-checks strictly and calls the reference correctly:
 * a feed, the same with If-None-Match → 304, the repository's issue events, GET /hooks. Twice:
 * - from the package's `./spec` export with one setting, orval's own: since orval 8 it reads no
 *   file a `$ref` points to unless the config allows it (`input.parserOptions.externalRefs.allow`;
 *   without it orval stops with "External $ref targets are not allowed by default", a safety
 *   default, not a bug), and the contract's schemas are files beside openapi.yaml;
 * - from the one-file bundle the package ships (`node_modules/service-contract/bundle/openapi.json`) with nothing but
 *   `--input` and `--output`.
 * The contract names nothing twice the way orval derives names (`<Response>Response` was both the
 * response HookDeliveryDetail and HookDeliveryDetail's `response` property: TS2300;
 * test/spec/derived-names.test.ts keeps it so).
 *
 * The usage sets the base URL on axios, which orval's functions use, and asks for the 304 as an
 * answer (`validateStatus`), which axios would otherwise reject.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll } from "vitest";
import { repoRoot } from "../repo-root.ts";
import { describeGeneratedClient, REPO, run, scratch, SPEC } from "./clients/harness.ts";
import { ceiling } from "../ceilings.ts";

const BUNDLE = join(repoRoot, "bundle/openapi.json");
const BIN = join(repoRoot, "node_modules/.bin/orval");

const CONFIG = `
export default {
  contract: {
    input: { target: ${JSON.stringify(SPEC)}, parserOptions: { externalRefs: { allow: ["*"] } } },
    output: { target: "./gen/api.ts" },
  },
};
`;

const USAGE = `
import axios from "axios";
import { listIssueEventsForRepo, listPublicEvents, listServiceHooks } from "./gen/api.ts";

export async function run(baseUrl: string) {
  axios.defaults.baseURL = baseUrl;
  const feed = await listPublicEvents();
  const etag = (feed.headers["etag"] as string | undefined) ?? null;
  const again = await listPublicEvents(undefined, { headers: { "If-None-Match": etag ?? "" }, validateStatus: () => true });
  const issueEvents = await listIssueEventsForRepo(${JSON.stringify(REPO.owner)}, ${JSON.stringify(REPO.repo)});
  const hooks = await listServiceHooks();
  return {
    feed: { status: feed.status, etag, ids: feed.data.map((e) => e.id) },
    notModified: { status: again.status },
    issueEvents: { status: issueEvents.status, events: issueEvents.data.map((e) => e.event) },
    hooks: { status: hooks.status, names: hooks.data.map((h) => h.name) },
  };
}
`;

let fromSpec = "";
let fromBundle = "";
beforeAll(async () => {
  fromSpec = scratch("orval");
  writeFileSync(join(fromSpec, "orval.config.ts"), CONFIG);
  fromBundle = scratch("orval-bundle");
  await Promise.all([
    run(BIN, ["--config", "orval.config.ts"], { cwd: fromSpec, maxBuffer: 16 * 1024 * 1024 }),
    run(BIN, ["--input", BUNDLE, "--output", "./gen/api.ts"], { cwd: fromBundle, maxBuffer: 16 * 1024 * 1024 }),
  ]);
  for (const dir of [fromSpec, fromBundle]) writeFileSync(join(dir, "usage.ts"), USAGE);
}, ceiling(150_000));

describeGeneratedClient("orval from service-contract/spec (external refs allowed)", () => fromSpec);
describeGeneratedClient("orval from service-contract/bundle/openapi.json, no options", () => fromBundle);
