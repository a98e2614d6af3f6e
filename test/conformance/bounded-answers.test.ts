/**
 * Issue 34, points 1 and 2, in process: the suite's HttpClient against targets that answer with a
 * gzip bomb, a gibibyte, an endless chunked body, or a burst then a trickle. Every answer is read
 * with a byte limit counted after decompression (the client hangs up just past it, the server
 * sees it), a failure keeps an excerpt, the exchange a report prints is bounded, and the request
 * time-out is a timer the client owns: it fires after garbage collections mid-request.
 * The memory of a whole run against these targets: test/conformance/cli-bounded-memory.test.ts.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CaseFailure } from "../../conformance/core/failure.ts";
import { EXCHANGE_TEXT_LIMIT, HttpClient } from "../../conformance/core/http.ts";
import { DEFAULT_MAX_RESPONSE_BYTES } from "../../conformance/core/bounded-body.ts";
import { jsonSafe } from "../../conformance/run/json-safe.ts";
import { runSuite } from "../../conformance/run/runner.ts";
import type { Case } from "../../conformance/core/types.ts";
import { startHostileServer, type Abuse, type HostileServer } from "./hostile-servers.ts";
import { startFakeTarget, type FakeTarget } from "./fake-target.ts";
import { ceiling } from "../ceilings.ts";

const MB = 1024 * 1024;
const servers = new Map<Abuse, HostileServer>();
let plain: FakeTarget;

beforeAll(async () => {
  for (const abuse of ["gzip-bomb", "gibibyte", "endless-chunked", "burst-then-trickle"] as const) servers.set(abuse, await startHostileServer(abuse));
  // 1 MB of JSON: under the default limit, over what an exchange keeps.
  plain = await startFakeTarget((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ text: "y".repeat(MB) })));
});
afterAll(async () => {
  await Promise.all([...servers.values()].map((s) => s.close()));
  await plain?.close();
});

async function failureOf(work: Promise<unknown>): Promise<CaseFailure> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CaseFailure);
  return error as CaseFailure;
}

describe("an answer over the byte limit", () => {
  it.each(["gzip-bomb", "gibibyte", "endless-chunked"] as const)("%s: the case fails naming the limit, and the client hangs up just past it", async (abuse) => {
    const server = servers.get(abuse)!;
    const before = server.sent();
    const http = new HttpClient(server.url, server.url, fetch, { timeoutMs: ceiling(20_000), maxResponseBytes: 2 * MB });
    const failure = await failureOf(http.request({ path: "/events", validate: false }));
    expect(failure.message).toBe(`the answer to GET ${server.url}/events is larger than the suite reads (2 MB, --max-response-bytes): it was not read to the end`);
    expect(failure.detail.expected).toBe("an answer of at most 2 MB (decoded)");
    expect(String(failure.detail.actual)).toMatch(/^more than 2097152 bytes, beginning "/);
    expect(String(failure.detail.actual).length).toBeLessThan(1500);
    // The request is still the one the curl line shows.
    expect(http.lastSent?.url).toBe(`${server.url}/events`);
    // Hung up: the server stopped well short of what it would have sent (a gibibyte, or 16 GiB
    // decoded from 16 MB on the wire); what it did send is what the sockets' buffers took.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.sent() - before).toBeLessThan(abuse === "gzip-bomb" ? 8 * MB : 64 * MB);
  });

  it("the default limit is 8 MB", () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(8 * MB);
    expect(new HttpClient("http://127.0.0.1:1", "http://127.0.0.1:1").maxResponseBytes).toBe(8 * MB);
  });

  it("an answer under the limit is read whole; the exchange a report prints keeps an excerpt", async () => {
    const http = new HttpClient(plain.url, plain.url, fetch, { timeoutMs: ceiling(10_000) });
    const res = await http.request({ path: "/events", validate: false });
    expect(res.json<{ text: string }>().text).toHaveLength(MB);
    expect(res.exchange.responseText).toHaveLength(EXCHANGE_TEXT_LIMIT);
    expect(res.exchange.responseLength).toBe(MB + 11);
  });
});

describe("the limit of a run", () => {
  const READS: Case = { id: "X-READ-001", title: "reads /events", area: "feeds", seed: "s", run: async (ctx) => void (await ctx.http.request({ path: "/events", validate: false })) };
  const runWith = (extra: Partial<Parameters<typeof runSuite>[0]>) => runSuite({ baseUrl: plain.url, authUrl: plain.url, profile: { users: [{ login: "u" }] }, cases: [READS], receiverHost: false, ...extra });

  it("is the profile's limits.maxResponseBytes, and the run's option wins over it", async () => {
    const byProfile = await runWith({ profile: { users: [{ login: "u" }], limits: { maxResponseBytes: 4096 } } });
    expect(byProfile.results[0]!.failure?.message).toMatch(/is larger than the suite reads \(4 KB, --max-response-bytes\)/);
    const byOption = await runWith({ profile: { users: [{ login: "u" }], limits: { maxResponseBytes: 4096 } }, maxResponseBytes: 2 * MB });
    expect(byOption.results[0]!.status).toBe("passed");
    const byDefault = await runWith({});
    expect(byDefault.results[0]!.status).toBe("passed");
  });
});

describe("a failure's expected and actual values", () => {
  it("keep an excerpt of a big value, saying its full length", () => {
    const body = "z".repeat(8 * MB);
    const text = jsonSafe(body) as string;
    expect(text.length).toBeLessThan(5000);
    expect(text).toMatch(/… \(an excerpt: the first 4096 of 8388608 characters\)$/);
    const many = jsonSafe(Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `event ${i}` })));
    expect(typeof many).toBe("string");
    expect((many as string).length).toBeLessThan(17_000);
    expect(many as string).toMatch(/^\[\{"id":0,"name":"event 0"\}/);
    // Small values stay values.
    expect(jsonSafe({ status: 200, body: [1, 2] })).toEqual({ status: 200, body: [1, 2] });
  });
});

describe("the request time-out", () => {
  it("fires after garbage collections mid-request (a burst, then a byte a second)", async () => {
    // Node 20 holds AbortSignal.timeout() weakly: collected mid-request, the limit was lost and
    // the trickle ran on. The client's own timer must survive any number of collections.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const server = servers.get("burst-then-trickle")!;
    // As in a run: the case's own signal beside the request's limit (AbortSignal.any held that weakly).
    const caseEnd = new AbortController();
    const http = new HttpClient(server.url, server.url, fetch, { timeoutMs: 1500, signal: caseEnd.signal });
    const started = Date.now();
    const request = failureOf(http.request({ path: "/events", validate: false }));
    await server.trickling;
    for (let i = 0; i < 5; i++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Without the limit the trickle lasts 120 s: give up long before that, as a failure.
    const failure = await Promise.race([request, new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the request time-out never fired")), ceiling(8000)))]);
    expect(failure.message).toBe(`no answer within 1500 ms: GET ${server.url}/events`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    caseEnd.abort();
  }, ceiling(20_000));
});
