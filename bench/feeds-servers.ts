/**
 * The servers of the feed benchmark (bench/feeds.ts), in a process of their own so that the load
 * generator's CPU is not the servers': the reference server as `serve` runs it (PGlite in memory,
 * no response validation) with 300 events on the measured repository and one token for each of
 * 100 pollers, and the floor — a bare `node:http` server sending the very bytes and headers the
 * reference sent for that page, from memory — and a control: a bare Fastify route sending the
 * same bytes and headers, so the report shows how much of the gap is Fastify's own. Prints one
 * JSON line with the URLs, the tokens and the page's ETag; stops on SIGTERM.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { startServer } from "../reference/server.ts";
import { createUser } from "../reference/store/accounts.ts";
import { createAuthorization } from "../reference/store/authorizations.ts";
import { insertEvents } from "../test/reference/feeds-fixtures.ts";
import { answerCpuRequests } from "./lib/cpu-ipc.ts";

export const FEED_PATH = "/repos/octocat/hello-world/events";
// 5000 requests an hour each: enough pollers that the 200 rounds never exhaust a token.
const USERS = 200;

/** A response's headers to send again from memory: all but the hop-by-hop ones, which the sending server sets itself. */
function replayable(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  for (const hopByHop of ["content-length", "transfer-encoding", "connection", "keep-alive"]) delete headers[hopByHop];
  return headers;
}

const ref = await startServer({ port: 0, authPort: 0, seed: "demo", validateResponses: false });
await insertEvents(ref.db, { actor: "octocat", repo: "octocat/hello-world", count: 300 }, ref.urls.api);
const tokens: string[] = [];
for (let n = 0; n < USERS; n++) {
  const user = await createUser(ref.db, { login: `bench-poller-${n}` });
  tokens.push((await createAuthorization(ref.db, { userId: user.id, appId: null, scopes: [], via: "api" })).token);
}
const sample = await fetch(`${ref.urls.api}${FEED_PATH}`, { headers: { authorization: `token ${tokens[0]}` } });
const body = await sample.text();
const etag = sample.headers.get("etag")!;
const headers = replayable(sample);

// The 304 the reference sends (rate-limit and scope headers included), so the floor's is as heavy.
const conditional = await fetch(`${ref.urls.api}${FEED_PATH}`, { headers: { authorization: `token ${tokens[1]}`, "if-none-match": etag } });
await conditional.arrayBuffer();
const notModifiedHeaders = replayable(conditional);

// And the anonymous 304 (anonymous limit, no scope headers), for the anonymous row.
const anonymous = await fetch(`${ref.urls.api}${FEED_PATH}`, { headers: { "if-none-match": etag } });
await anonymous.arrayBuffer();
const notModifiedAnonymousHeaders = replayable(anonymous);

// Encoded once, as the best a server sending these bytes from memory can do.
const bodyBytes = Buffer.from(body);
// With its length, as Fastify sends it (without, node:http would fall back to chunked framing).
const okHeaders = { ...headers, "content-length": String(bodyBytes.length) };
const floor = createServer((req, res) => {
  if (req.headers["if-none-match"] === etag) {
    res.writeHead(304, req.headers.authorization === undefined ? notModifiedAnonymousHeaders : notModifiedHeaders);
    res.end();
    return;
  }
  res.writeHead(200, okHeaders);
  res.end(bodyBytes);
});
await new Promise<void>((resolve) => floor.listen(0, "127.0.0.1", resolve));

// The same answers through a bare Fastify route (no hooks, no logging), headers set in one call;
// the route has the reference's parametric shape, so it routes and parses parameters as it does.
const control = Fastify({ logger: false });
control.get("/repos/:owner/:repo/events", (request, reply) => {
  if (request.headers["if-none-match"] === etag) return reply.code(304).headers(request.headers.authorization === undefined ? notModifiedAnonymousHeaders : notModifiedHeaders).send();
  return reply.code(200).headers(headers).send(bodyBytes);
});
await control.listen({ port: 0, host: "127.0.0.1" });

process.stdout.write(
  JSON.stringify({
    reference: `${ref.urls.api}${FEED_PATH}`,
    floor: `http://127.0.0.1:${(floor.address() as AddressInfo).port}${FEED_PATH}`,
    control: `http://127.0.0.1:${(control.server.address() as AddressInfo).port}${FEED_PATH}`,
    tokens,
    etag,
    bytes: Buffer.byteLength(body),
  }) + "\n",
);
answerCpuRequests();
process.once("SIGTERM", () => {
  process.disconnect?.();
  floor.close();
  void control.close();
  void ref.close().then(() => process.exit(0));
});
