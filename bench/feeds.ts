/**
 * Feed polling on loopback with autocannon (issue 5, "Speed"): requests/s for a 200 feed page
 * (30 push events, page 1 of /repos/octocat/hello-world/events) and for its 304, each against the
 * floor — a bare `node:http` server sending the same bytes and headers from memory. Targets: 200s
 * at ≥ 50% of the floor, 304s at ≥ 70%; and the 200 against `service-contract mock` (Prism, run
 * as the command runs it, in a child process) on the same path: ≥ 10×.
 *
 * The reference server runs in this process, as `serve` runs it (PGlite in memory, no response
 * validation). Requests carry tokens, like real pollers (anonymous callers have 60 requests an
 * hour); the 200 run rotates over enough users that the 5000/hour limit never answers 403.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { createInterface } from "node:readline";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { startServer } from "../reference/server.ts";
import { createUser } from "../reference/store/accounts.ts";
import { createAuthorization } from "../reference/store/authorizations.ts";
import { insertEvents } from "../test/reference/feeds-fixtures.ts";
import { printSection } from "./lib/report.ts";

interface AutocannonResult {
  requests: { average: number };
  non2xx: number;
  errors: number;
  statusCodeStats?: Record<string, { count: number }>;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: { setupRequest?: (req: { headers?: Record<string, string> }) => unknown }[];
}
const autocannon = createRequire(import.meta.url)("autocannon") as (options: AutocannonOptions) => Promise<AutocannonResult>;

const DURATION = Number(process.env.BENCH_FEEDS_SECONDS ?? 5);
const CONNECTIONS = 10;
const USERS = 100;
const PATH = "/repos/octocat/hello-world/events";

async function run(url: string, headers: Record<string, string>, tokens?: string[]): Promise<number> {
  let i = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    headers,
    requests: tokens ? [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: `token ${tokens[i++ % tokens.length]}` } }) }] : undefined,
  });
  if (result.errors > 0) throw new Error(`bench/feeds: ${result.errors} request errors against ${url}`);
  return result.requests.average;
}

/** The floor: the same bytes and headers straight from memory. */
async function floorServer(body: string, headers: Record<string, string>): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (req.headers["if-none-match"] === headers.etag) {
      res.writeHead(304, { etag: headers.etag!, "x-poll-interval": headers["x-poll-interval"]! });
      res.end();
      return;
    }
    res.writeHead(200, headers);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${PATH}` };
}

/** `service-contract mock --port 0`, as a user runs it; resolves with its URL and a stop function. */
async function startMock(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ["bin/service-contract.js", "mock", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith("{")) resolve((JSON.parse(line) as { mock: string }).mock);
    });
    child.once("exit", (code) => reject(new Error(`service-contract mock exited (${code}) before it was ready`)));
  });
  return { url, stop: async () => (child.kill("SIGTERM"), await exited) };
}

export async function benchFeeds(): Promise<void> {
  const ref = await startServer({ port: 0, authPort: 0, seed: "demo", validateResponses: false });
  try {
    await insertEvents(ref.db, { actor: "octocat", repo: "octocat/hello-world", count: 300 }, ref.urls.api);
    const tokens: string[] = [];
    for (let n = 0; n < USERS; n++) {
      const user = await createUser(ref.db, { login: `bench-poller-${n}` });
      tokens.push((await createAuthorization(ref.db, { userId: user.id, appId: null, scopes: [], via: "api" })).token);
    }
    const url = `${ref.urls.api}${PATH}`;
    const sample = await fetch(url, { headers: { authorization: `token ${tokens[0]}` } });
    const body = await sample.text();
    const etag = sample.headers.get("etag")!;
    const headers: Record<string, string> = {};
    sample.headers.forEach((value, name) => (headers[name] = value));
    delete headers["content-length"];
    delete headers["transfer-encoding"];
    delete headers.connection;
    delete headers["keep-alive"];
    const floor = await floorServer(body, headers);
    try {
      const refOk = await run(url, {}, tokens);
      const floorOk = await run(floor.url, {});
      const refNotModified = await run(url, { "if-none-match": etag }, tokens);
      // A 304 never counts against the rate limit, so anonymous polling can be measured too.
      const refNotModifiedAnon = await run(url, { "if-none-match": etag });
      const floorNotModified = await run(floor.url, { "if-none-match": etag });
      const mock = await startMock();
      let prismOk: number;
      try {
        prismOk = await run(`${mock.url}${PATH}`, {});
      } finally {
        await mock.stop();
      }
      printSection(
        `feeds: 200 page (${Buffer.byteLength(body)} bytes), autocannon ${CONNECTIONS} connections × ${DURATION} s`,
        [
          { name: "bare node:http, same bytes (floor)", value: floorOk, unit: "req/s", better: "higher", baseline: true },
          { name: "reference server, with a token", value: refOk, unit: "req/s", better: "higher" },
        ],
        "≥ 0.50× floor",
      );
      printSection(
        "feeds: 304 on If-None-Match",
        [
          { name: "bare node:http (floor)", value: floorNotModified, unit: "req/s", better: "higher", baseline: true },
          { name: "reference server, with a token", value: refNotModified, unit: "req/s", better: "higher" },
          { name: "reference server, anonymous", value: refNotModifiedAnon, unit: "req/s", better: "higher" },
        ],
        "≥ 0.70× floor",
      );
      printSection(
        "feeds: 200 page against `service-contract mock` (Prism) on the same path",
        [
          { name: "service-contract mock (Prism)", value: prismOk, unit: "req/s", better: "higher", baseline: true },
          { name: "reference server, with a token", value: refOk, unit: "req/s", better: "higher" },
        ],
        "≥ 10× Prism",
      );
    } finally {
      await new Promise((resolve) => floor.server.close(resolve));
    }
  } finally {
    await ref.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchFeeds();
