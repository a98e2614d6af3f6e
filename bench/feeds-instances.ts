/**
 * The servers of the feed benchmark's multi-instance row (bench/feeds.ts), in a process of their
 * own: two reference instances on one scratch PostgreSQL database (an admin URL in
 * BENCH_DATABASE_URL or TEST_DATABASE_URL), behind the round-robin proxy of the multi-instance
 * tests (test/reference/round-robin-proxy.ts) whose URL is their public URL; and the floor — a
 * bare `node:http` server sending the 304 the instances send, from memory — behind the same
 * proxy code. 300 events on the measured repository and 200 pollers with a token each, as in
 * feeds-servers.ts. Prints one JSON line with the URLs, the tokens and the page's ETag; stops on
 * SIGTERM (and drops the database).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { startServer } from "../reference/server.ts";
import { createUser } from "../reference/store/accounts.ts";
import { createAuthorization } from "../reference/store/authorizations.ts";
import { insertEvents } from "../test/reference/feeds-fixtures.ts";
import { roundRobinProxy, SERVED_BY } from "../test/reference/round-robin-proxy.ts";
import { answerCpuRequests } from "./lib/cpu-ipc.ts";

// As in feeds-servers.ts (whose module starts its servers when imported).
const FEED_PATH = "/repos/octocat/hello-world/events";
const USERS = 200;
const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!admin) throw new Error("bench/feeds-instances: needs BENCH_DATABASE_URL or TEST_DATABASE_URL");

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const name = `bench_feeds_instances_${process.pid}`;
const url = new URL(admin);
url.pathname = `/${name}`;
await adminQuery(`create database ${name}`);

const proxy = roundRobinProxy();
await proxy.listen();
const start = () => startServer({ port: 0, authPort: 0, databaseUrl: url.href, seed: "demo", validateResponses: false, publicUrls: { api: proxy.url } });
const [a, b] = await Promise.all([start(), start()]).catch(async (error: unknown) => {
  // Not left behind when an instance cannot start (the other's connections are cut by the drop).
  await adminQuery(`drop database if exists ${name} with (force)`).catch(() => undefined);
  throw error;
});
proxy.upstreams = [a.listening.api, b.listening.api];

await insertEvents(a.db, { actor: "octocat", repo: "octocat/hello-world", count: 300 }, proxy.url);
const tokens: string[] = [];
for (let n = 0; n < USERS; n++) {
  const user = await createUser(a.db, { login: `bench-poller-${n}` });
  tokens.push((await createAuthorization(a.db, { userId: user.id, appId: null, scopes: [], via: "api" })).token);
}
const sample = await fetch(`${proxy.url}${FEED_PATH}`, { headers: { authorization: `token ${tokens[0]}` } });
await sample.arrayBuffer();
const etag = sample.headers.get("etag")!;
// The 304 the instances send, so the floor's is as heavy (without the proxy's own header, which it adds again).
const conditional = await fetch(`${proxy.url}${FEED_PATH}`, { headers: { authorization: `token ${tokens[1]}`, "if-none-match": etag } });
await conditional.arrayBuffer();
if (conditional.status !== 304) throw new Error(`bench/feeds-instances: the other instance answered ${conditional.status} to the first one's ETag`);
const notModified: Record<string, string> = {};
conditional.headers.forEach((value, header) => (notModified[header] = value));
for (const drop of ["content-length", "transfer-encoding", "connection", "keep-alive", SERVED_BY]) delete notModified[drop];

const floor = createServer((req, res) => {
  res.writeHead(req.headers["if-none-match"] === etag ? 304 : 200, notModified);
  res.end();
});
await new Promise<void>((resolve) => floor.listen(0, "127.0.0.1", resolve));
const floorUrl = `http://127.0.0.1:${(floor.address() as AddressInfo).port}`;
// The same proxy code, with the floor as both "instances".
const floorProxy = roundRobinProxy([floorUrl, floorUrl]);
await floorProxy.listen();

process.stdout.write(
  JSON.stringify({ reference: `${proxy.url}${FEED_PATH}`, floor: `${floorProxy.url}${FEED_PATH}`, control: `${floorUrl}${FEED_PATH}`, tokens, etag }) + "\n",
);
answerCpuRequests();
process.once("SIGTERM", () => {
  process.disconnect?.();
  floor.close();
  void (async () => {
    await Promise.allSettled([proxy.close(), floorProxy.close(), a.close(), b.close()]);
    await adminQuery(`drop database if exists ${name} with (force)`).catch(() => undefined);
    process.exit(0);
  })();
});
