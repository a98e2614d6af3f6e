/**
 * Feed polling on loopback with autocannon (issue 5, "Speed"): requests/s for a 200 feed page
 * (30 push events, page 1 of /repos/octocat/hello-world/events) and for its 304, each against the
 * floor — a bare `node:http` server sending the same bytes and headers from memory. Targets: 200s
 * at ≥ 50% of the floor, 304s at ≥ 70%; and the 200 against `service-contract mock` (Prism, run
 * as the command runs it) on the same path: ≥ 10×.
 *
 * The servers run in a child process (feeds-servers.ts) and autocannon in this one, so load
 * generation does not eat the servers' CPU. Every run sends the same requests, the floor's too:
 * requests carry tokens, rotating over 100 pollers, like real pollers (anonymous callers have 60
 * requests an hour, so an anonymous 200 cannot be measured at load; an anonymous 304 can, since
 * a 304 never counts against the limit).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { printSection } from "./lib/report.ts";

interface AutocannonResult {
  requests: { average: number };
  errors: number;
  statusCodeStats?: Record<string, { count: number }>;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: { headers?: Record<string, string> }[];
}
const autocannon = createRequire(import.meta.url)("autocannon") as (options: AutocannonOptions) => Promise<AutocannonResult>;

const DURATION = Number(process.env.BENCH_FEEDS_SECONDS ?? 5);
const CONNECTIONS = 10;

/** Requests/s; fails when any answer is not `expected` (a 403 or a 500 would inflate the figure). */
async function run(url: string, expected: number, headers: Record<string, string>, tokens?: string[]): Promise<number> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    headers,
    // One pre-built request per token, cycled by each connection: rebuilding a request per send
    // (setupRequest) made the load generator, not the server, the limit of the token runs.
    requests: tokens ? tokens.map((token) => ({ headers: { ...headers, authorization: `token ${token}` } })) : undefined,
  });
  const other = Object.entries(result.statusCodeStats ?? {}).filter(([status]) => Number(status) !== expected);
  if (result.errors > 0 || other.length > 0) throw new Error(`bench/feeds: ${url} answered ${JSON.stringify(result.statusCodeStats)} with ${result.errors} errors, expected only ${expected}`);
  return result.requests.average;
}

/** Starts a child that prints one JSON line when ready; resolves with that line and a stop function. */
async function startChild<T>(args: string[]): Promise<{ ready: T; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = await new Promise<T>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith("{")) resolve(JSON.parse(line) as T);
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited (${code}) before it was ready`)));
  });
  return { ready, stop: async () => (child.kill("SIGTERM"), await exited) };
}

interface Servers {
  reference: string;
  floor: string;
  tokens: string[];
  etag: string;
  bytes: number;
}

export async function benchFeeds(): Promise<void> {
  const servers = await startChild<Servers>(["--import", "tsx", "bench/feeds-servers.ts"]);
  let figures: Record<string, number>;
  const { reference, floor, tokens, etag, bytes } = servers.ready;
  const path = new URL(reference).pathname;
  try {
    const conditional = { "if-none-match": etag };
    figures = {
      floorOk: await run(floor, 200, {}, tokens),
      refOk: await run(reference, 200, {}, tokens),
      floorNotModified: await run(floor, 304, conditional, tokens),
      refNotModified: await run(reference, 304, conditional, tokens),
      floorNotModifiedAnon: await run(floor, 304, conditional),
      refNotModifiedAnon: await run(reference, 304, conditional),
    };
  } finally {
    await servers.stop();
  }
  const mock = await startChild<{ mock: string }>(["bin/service-contract.js", "mock", "--port", "0"]);
  try {
    figures.prismOk = await run(`${mock.ready.mock}${path}`, 200, {}, tokens);
  } finally {
    await mock.stop();
  }
  printSection(
    `feeds: 200 page (${bytes} bytes), with a token, autocannon ${CONNECTIONS} connections × ${DURATION} s`,
    [
      { name: "bare node:http, same bytes (floor)", value: figures.floorOk!, unit: "req/s", better: "higher", baseline: true },
      { name: "reference server", value: figures.refOk!, unit: "req/s", better: "higher" },
    ],
    "≥ 0.50× floor",
  );
  printSection(
    "feeds: 304 on If-None-Match, with a token",
    [
      { name: "bare node:http (floor)", value: figures.floorNotModified!, unit: "req/s", better: "higher", baseline: true },
      { name: "reference server", value: figures.refNotModified!, unit: "req/s", better: "higher" },
    ],
    "≥ 0.70× floor",
  );
  printSection(
    "feeds: 304 on If-None-Match, anonymous",
    [
      { name: "bare node:http (floor)", value: figures.floorNotModifiedAnon!, unit: "req/s", better: "higher", baseline: true },
      { name: "reference server", value: figures.refNotModifiedAnon!, unit: "req/s", better: "higher" },
    ],
    "≥ 0.70× floor",
  );
  printSection(
    "feeds: 200 page against `service-contract mock` (Prism) on the same path",
    [
      { name: "service-contract mock (Prism)", value: figures.prismOk!, unit: "req/s", better: "higher", baseline: true },
      { name: "reference server", value: figures.refOk!, unit: "req/s", better: "higher" },
    ],
    "≥ 10× Prism",
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchFeeds();
