/**
 * Feed polling on loopback with autocannon (issue 5, "Speed"): requests/s for a 200 feed page
 * (30 push events, page 1 of /repos/octocat/hello-world/events) and for its 304, each against the
 * floor — a bare `node:http` server sending the same bytes and headers from memory. Targets: 200s
 * at ≥ 50% of the floor, 304s at ≥ 70%; and the 200 against `service-contract mock` (Prism, run
 * as the command runs it) on the same path: ≥ 10×. Two rows send a stale `If-None-Match` (issue
 * 43, ≥ 75%): on the URL the token was already served (the poll lane's repeat), and on a URL of
 * its own per request (`?poll=<id>`, ignored by the contract): a viewer's first poll, the full path.
 *
 * With an admin PostgreSQL URL (TEST_DATABASE_URL or BENCH_DATABASE_URL) a last row measures the
 * 304 through a round-robin proxy to two instances on one database, against the same proxy in
 * front of the floor (feeds-instances.ts; `BENCH_FEEDS_ROWS=instances` runs that row alone).
 *
 * The servers run in a child process (feeds-servers.ts) and autocannon in this one, so load
 * generation does not eat the servers' CPU. Every run sends the same requests, the floor's too:
 * requests carry tokens, rotating over 200 pollers, like real pollers (anonymous callers have 60
 * requests an hour, so an anonymous 200 cannot be measured at load; an anonymous 304 can, since
 * a 304 never counts against the limit). A bare Fastify route sending the same answers is
 * measured beside them (the control): what the framework alone costs against the floor.
 *
 * Other work shares this machine's cores and its load changes during a run, so each row is
 * measured in interleaved rounds (floor, control, reference, then the reverse) and reported as
 * the median of the per-round ratios. `BENCH_FEEDS_SECONDS` (default 3) and `BENCH_FEEDS_ROUNDS`
 * (default 5) set the length of each measurement and the number of rounds.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { loadavg } from "node:os";
import { median } from "./lib/report.ts";

interface AutocannonResult {
  requests: { average: number; total: number };
  errors: number;
  statusCodeStats?: Record<string, { count: number }>;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: { headers?: Record<string, string>; path?: string }[];
  /** Replace `[<id>]` in each request with an id of its own (rebuilds every request). */
  idReplacement?: boolean;
}
const autocannon = createRequire(import.meta.url)("autocannon") as (options: AutocannonOptions) => Promise<AutocannonResult>;

const SECONDS = Number(process.env.BENCH_FEEDS_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_FEEDS_ROUNDS ?? 5);
const WARMUP_SECONDS = 1;
const CONNECTIONS = 10;

/** Requests/s and their count; fails when any answer is not `expected` (a 403 or a 500 would inflate the figure). */
async function run(url: string, expected: number, headers: Record<string, string>, tokens: string[] | undefined, duration = SECONDS, unique = false): Promise<{ perSecond: number; total: number }> {
  // A URL of its own for each request (an ignored query parameter, autocannon's `[<id>]`): a
  // viewer's first poll of that URL, which nothing has answered before.
  const path = unique ? `${new URL(url).pathname}?poll=[<id>]` : undefined;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    headers,
    // One pre-built request per token, cycled by each connection: rebuilding a request per send
    // (setupRequest) made the load generator, not the server, the limit of the token runs. The
    // unique row rebuilds every request (the same for all three servers).
    requests: tokens ? tokens.map((token) => ({ headers: { ...headers, authorization: `token ${token}` }, ...(path ? { path } : {}) })) : undefined,
    ...(unique ? { idReplacement: true } : {}),
  });
  const other = Object.entries(result.statusCodeStats ?? {}).filter(([status]) => Number(status) !== expected);
  if (result.errors > 0 || other.length > 0) throw new Error(`bench/feeds: ${url} answered ${JSON.stringify(result.statusCodeStats)} with ${result.errors} errors, expected only ${expected}`);
  return { perSecond: result.requests.average, total: result.requests.total };
}

interface Child<T> {
  ready: T;
  stop: () => Promise<void>;
  /** The child's CPU time so far (user + system, µs), when it answers over IPC (feeds-servers.ts does). */
  cpu: () => Promise<number>;
}

/** Starts a child that prints one JSON line when ready; resolves with that line and a stop function. */
async function startChild<T>(args: string[]): Promise<Child<T>> {
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit", "ipc"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = await new Promise<T>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith("{")) resolve(JSON.parse(line) as T);
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited (${code}) before it was ready`)));
  });
  const cpu = () =>
    new Promise<number>((resolve) => {
      child.once("message", (message) => resolve((message as { cpu: number }).cpu));
      child.send("cpu");
    });
  return { ready, cpu, stop: async () => (child.kill("SIGTERM"), await exited) };
}

interface Servers {
  reference: string;
  floor: string;
  control: string;
  tokens: string[];
  etag: string;
  bytes: number;
}

type Subject = "floor" | "control" | "reference";
interface Row {
  title: string;
  expected: number;
  headers: Record<string, string>;
  tokens: string[] | undefined;
  /** The reference's ratio to the floor that the row must reach; none for a row shown for information. */
  target?: number;
  note?: string;
  /** Each request to a URL of its own (`?poll=<id>`): a first poll, never a repeat. */
  unique?: boolean;
  /** What each subject is, when not the single-instance rows' floor, control and reference. */
  labels?: Record<Subject, string>;
}
interface Measured {
  /** Requests/s of each subject, one figure per round. */
  rounds: Record<Subject, number[]>;
  median: Record<Subject, number>;
  /** Per round, subject ÷ floor of that same round; their median and range. */
  ratio: Record<"control" | "reference", { median: number; min: number; max: number }>;
  /** Median over the rounds of the servers' CPU time per request (µs). */
  cpu: Record<Subject, number>;
}

/**
 * One row, interleaved: a warm-up of each server, then `ROUNDS` rounds of floor, control and
 * reference back to back (the order reversed every other round), so a change of load on the
 * shared machine weighs on all three alike. The figure reported is the median of the per-round
 * ratios, beside the median requests/s of each server and its CPU time per request (all three
 * servers share one process, and only one is driven at a time).
 */
async function measure(urls: Record<Subject, string>, row: Row, cpu: () => Promise<number>): Promise<Measured> {
  const subjects: Subject[] = ["floor", "control", "reference"];
  for (const subject of subjects) await run(urls[subject], row.expected, row.headers, row.tokens, WARMUP_SECONDS, row.unique);
  const rounds: Record<Subject, number[]> = { floor: [], control: [], reference: [] };
  const cpus: Record<Subject, number[]> = { floor: [], control: [], reference: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? subjects : [...subjects].reverse();
    for (const subject of order) {
      const before = await cpu();
      const result = await run(urls[subject], row.expected, row.headers, row.tokens, SECONDS, row.unique);
      cpus[subject].push(((await cpu()) - before) / result.total);
      rounds[subject].push(result.perSecond);
    }
  }
  const ratios = (subject: "control" | "reference") => {
    const each = rounds[subject].map((value, n) => value / rounds.floor[n]!);
    return { median: median(each), min: Math.min(...each), max: Math.max(...each) };
  };
  return {
    rounds,
    median: { floor: median(rounds.floor), control: median(rounds.control), reference: median(rounds.reference) },
    ratio: { control: ratios("control"), reference: ratios("reference") },
    cpu: { floor: median(cpus.floor), control: median(cpus.control), reference: median(cpus.reference) },
  };
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const load = () => loadavg().map((n) => n.toFixed(2)).join(", ");

function print(row: Row, m: Measured): void {
  process.stdout.write(`\n## ${row.title}\n`);
  const line = (name: string, subject: Subject, note: string) =>
    process.stdout.write(
      `  ${name.padEnd(34)} ${fmt(m.median[subject]).padStart(8)} req/s  ${m.cpu[subject].toFixed(1).padStart(6)} µs CPU/req  ${note}\n    rounds: ${m.rounds[subject].map(fmt).join(" ")}\n`,
    );
  const ratio = (r: { median: number; min: number; max: number }) => `${r.median.toFixed(2)}× floor (rounds ${r.min.toFixed(2)}–${r.max.toFixed(2)})`;
  const labels = row.labels ?? { floor: "bare node:http, same bytes (floor)", control: "bare Fastify route (control)", reference: "reference server" };
  line(labels.floor, "floor", "baseline");
  line(labels.control, "control", ratio(m.ratio.control));
  line(labels.reference, "reference", ratio(m.ratio.reference));
  if (row.note) process.stdout.write(`  ${row.note}\n`);
  if (row.target === undefined) return;
  const met = m.ratio.reference.median >= row.target;
  process.stdout.write(`  target: ≥ ${row.target.toFixed(2)}× floor (median of the round ratios) — ${met ? "met" : "NOT met"}\n`);
}

/**
 * The multi-instance row (issue 17): the 304 through a round-robin proxy to two instances on one
 * PostgreSQL, against the same proxy in front of the floor (feeds-instances.ts). The ETag comes
 * from one instance and is sent to both, so half the 304s are the other instance's.
 */
async function benchInstances(): Promise<void> {
  if (!(process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL)) {
    process.stdout.write("\n## feeds: 304 through a round-robin proxy to two instances on PostgreSQL — skipped: set TEST_DATABASE_URL (an admin URL)\n");
    return;
  }
  const servers = await startChild<Omit<Servers, "bytes">>(["--import", "tsx", "bench/feeds-instances.ts"]);
  const { reference, floor, control, tokens, etag } = servers.ready;
  const row: Row = {
    title: "feeds: 304 on If-None-Match, with a token, through a round-robin proxy to two instances on PostgreSQL",
    expected: 304,
    headers: { "if-none-match": etag },
    tokens,
    labels: { floor: "proxy → bare node:http (floor)", control: "bare node:http, no proxy", reference: "proxy → two reference instances" },
    note: "no target: each 304 reads the token, the rate counter and the events version from PostgreSQL (the poll lane is for the embedded database)",
  };
  try {
    print(row, await measure({ floor, control, reference }, row, servers.cpu));
  } finally {
    await servers.stop();
  }
}

export async function benchFeeds(): Promise<void> {
  const loadBefore = load();
  // BENCH_FEEDS_ROWS=instances: only the multi-instance row (the others need no PostgreSQL).
  if (process.env.BENCH_FEEDS_ROWS === "instances") {
    process.stdout.write(`\n# feeds: autocannon ${CONNECTIONS} connections; ${WARMUP_SECONDS} s warm-up each, then ${ROUNDS} interleaved rounds × ${SECONDS} s (load average before: ${loadBefore})\n`);
    await benchInstances();
    return void process.stdout.write(`\nload average after: ${load()}\n`);
  }
  const servers = await startChild<Servers>(["--import", "tsx", "bench/feeds-servers.ts"]);
  const { reference, floor, control, tokens, etag, bytes } = servers.ready;
  const urls = { floor, control, reference };
  const path = new URL(reference).pathname;
  const conditional = { "if-none-match": etag };
  const rows: Row[] = [
    { title: `feeds: 200 page (${bytes} bytes), with a token`, expected: 200, headers: {}, tokens, target: 0.5 },
    { title: "feeds: 304 on If-None-Match, with a token", expected: 304, headers: conditional, tokens, target: 0.7 },
    { title: "feeds: 304 on If-None-Match, anonymous", expected: 304, headers: conditional, tokens: undefined, target: 0.7 },
    {
      title: "feeds: 200 page on a stale If-None-Match, with a token, the URL already served to the token",
      expected: 200,
      headers: { "if-none-match": '"stale"' },
      tokens,
      target: 0.75,
      note: "a repeat of a page this viewer was served, whose tag the poller lost or never had: the poll lane answers it (before issue 43 it took the full path)",
    },
    {
      title: "feeds: 200 page on a stale If-None-Match, with a token, a URL never served to the token (a first poll: the full path)",
      expected: 200,
      headers: { "if-none-match": '"stale"' },
      tokens,
      unique: true,
      target: 0.75,
      note: "each request names a URL of its own (`?poll=<id>`, a query parameter the contract ignores), so nothing has answered it before: validation, hooks, handler and response writing, as a viewer's first poll of a URL; the load generator rebuilds every request here, for all three servers",
    },
  ];
  process.stdout.write(`\n# feeds: autocannon ${CONNECTIONS} connections; per row ${WARMUP_SECONDS} s warm-up each, then ${ROUNDS} interleaved rounds × ${SECONDS} s (load average before: ${loadBefore})\n`);
  const results: Measured[] = [];
  try {
    for (const row of rows) {
      const m = await measure(urls, row, servers.cpu);
      results.push(m);
      print(row, m);
    }
  } finally {
    await servers.stop();
  }
  await benchInstances();
  // BENCH_FEEDS_PRISM=0 leaves Prism out (while iterating on the server; it takes ~10 s to start).
  if (process.env.BENCH_FEEDS_PRISM === "0") return void process.stdout.write(`\nload average after: ${load()}\n`);
  const mock = await startChild<{ mock: string }>(["bin/service-contract.js", "mock", "--port", "0"]);
  let prism: number;
  try {
    // Prism compiles on its first requests: a longer warm-up, and a run that must see answers.
    await run(`${mock.ready.mock}${path}`, 200, {}, tokens, 2 * WARMUP_SECONDS);
    const measured = await run(`${mock.ready.mock}${path}`, 200, {}, tokens);
    if (measured.total === 0) throw new Error("bench/feeds: Prism answered nothing in the measured run");
    prism = measured.perSecond;
  } finally {
    await mock.stop();
  }
  const ref = results[0]!.median.reference;
  process.stdout.write(`\n## feeds: 200 page against \`service-contract mock\` (Prism) on the same path\n`);
  process.stdout.write(`  service-contract mock (Prism)      ${fmt(prism).padStart(8)} req/s  baseline\n`);
  process.stdout.write(`  reference server (median above)    ${fmt(ref).padStart(8)} req/s  ${(ref / prism).toFixed(1)}× Prism\n`);
  process.stdout.write(`  target: ≥ 10× Prism — ${ref / prism >= 10 ? "met" : "NOT met"}\n`);
  process.stdout.write(`\nload average after: ${load()}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchFeeds();
