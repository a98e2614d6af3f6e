/**
 * Every answer the reference server gives is one the contract declares. A bounded, seeded
 * fast-check run (1,200 requests) sends bad and odd requests to every operation of both hosts —
 * path values that are malformed percent-escapes, too long, not numbers; unknown and repeated
 * query parameters; bodies of the wrong type, media type or size; headers too large; tokens good
 * and bad — to a server running with response validation on, and checks each answer from the
 * outside with the generated `validateResponse` (the conformance suite's contract check): its
 * status is declared for the operation, its body and declared headers match, and it carries no
 * contract header (`X-*`, `Link`, `ETag`, `Location`) the response does not declare. No 5xx.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { request } from "undici";
import { parse } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { validateResponse } from "../../generated/validators/index.js";
import { createAuthorization } from "../../reference/store/authorizations.ts";
import { findAccountByLogin } from "../../reference/store/accounts.ts";
import { DEMO, useServer } from "./harness.ts";
import { ceiling } from "../ceilings.ts";

const RUNS = 1200;
const SEED = 20261125;

type Json = Record<string, unknown>;
const root = join(import.meta.dirname, "../..");
const doc = parse(readFileSync(join(root, "spec/openapi.yaml"), "utf8")) as Json;
const deref = (v: unknown): Json => {
  let node = v as Json;
  while (node && typeof node.$ref === "string") node = (node.$ref as string).slice(2).split("/").reduce<Json>((o, k) => o[k.replace(/~1/g, "/")] as Json, doc);
  return node;
};

interface Operation {
  id: string;
  method: string;
  template: string;
  web: boolean;
  body: boolean;
  query: string[];
  /** Status → header names (lower case) the response declares. */
  headers: Map<string, Set<string>>;
}

const operations: Operation[] = Object.entries(doc.paths as Json).flatMap(([template, item]) =>
  Object.entries(item as Json)
    .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
    .map(([method, raw]) => {
      const op = raw as Json;
      const params = [...((item as Json).parameters as unknown[] ?? []), ...((op.parameters as unknown[]) ?? [])].map(deref);
      const headers = new Map(
        Object.entries(op.responses as Json).map(([status, r]) => [status, new Set(Object.keys((deref(r).headers as Json) ?? {}).map((h) => h.toLowerCase()))]),
      );
      return {
        id: op.operationId as string,
        method: method.toUpperCase(),
        template,
        web: Boolean(op.servers),
        body: Boolean(op.requestBody),
        query: params.filter((p) => p.in === "query").map((p) => p.name as string),
        headers,
      };
    }),
);

/** Contract headers: a response may carry one only where the contract declares it. */
const CONTRACT_HEADER = /^(x-(?!frame-options$|content-type-options$).*|link|etag|location)$/;

const t = useServer({ deliveries: { enabled: false } });
let token = "";

beforeAll(async () => {
  const account = await findAccountByLogin(t.server.db, DEMO.octocat.login);
  token = (await createAuthorization(t.server.db, { userId: account!.id, appId: null, scopes: ["repo", "user", "admin:repo_hook", "admin:org_hook"], via: "api", note: "fuzz" })).token;
}, ceiling(60_000));

const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("octocat", "hello-world", "octo-org", "1", "2", DEMO.app.clientId) },
  { weight: 3, arbitrary: fc.constantFrom("%zz", "a%", "%E0%A4%A", "%c0%ae", "%00", "0x10", "-1", "1e309", "%20", "..", "%2F", "a".repeat(2100), "ü") },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map(encodeURIComponent) },
);
const queryValue = fc.oneof(fc.constantFrom("1", "0", "11", "-1", "abc", "", "%zz", "1.5", "0x10"), fc.string({ maxLength: 8 }).map(encodeURIComponent));
const queryName = (op: Operation) => fc.constantFrom(...op.query, "page", "per_page", "sort", "access_token", "x");
const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 2 }).map((v) => ({ type: "application/json", data: JSON.stringify(v) })),
  fc.record({ name: fc.constantFrom("web", "chat", 5), config: fc.oneof(fc.constant({ url: "http://127.0.0.1:9/x" }), fc.jsonValue({ maxDepth: 1 })), events: fc.oneof(fc.constant(["push"]), fc.jsonValue({ maxDepth: 1 })), scopes: fc.constantFrom(["repo"], "repo", [1]), client_id: fc.constantFrom(DEMO.app.clientId, 1, null), client_secret: fc.constantFrom(DEMO.app.clientSecret, "x", []), code: fc.constantFrom("x", 5) }, { requiredKeys: [] }).map((v) => ({ type: "application/json", data: JSON.stringify(v) })),
  fc.constantFrom(
    { type: "application/json", data: "{nope" },
    { type: "text/plain", data: "hello" },
    { type: "application/x-www-form-urlencoded", data: "client_id=a&client_id=b&code=c" },
    { type: "application/json", data: "\xff\xfe" },
    { type: "application/xml", data: "<a/>" },
  ),
);
const exchange = fc
  .constantFrom(...operations)
  .chain((op) =>
    fc.record({
      op: fc.constant(op),
      segments: fc.array(segment, { minLength: 4, maxLength: 4 }),
      query: fc.array(fc.tuple(queryName(op), queryValue), { maxLength: 3 }),
      auth: fc.constantFrom("token", "token", "none", "bad", "basic"),
      accept: fc.constantFrom(undefined, "application/json", "application/xml", "text/html", "*/*"),
      body: op.body || op.method !== "GET" ? body : fc.constant(undefined),
      bigHeader: fc.nat(99).map((n) => n === 0),
    }),
  );

interface Problem {
  request: string;
  status: number;
  problem: string;
}

type Exchange = typeof exchange extends fc.Arbitrary<infer V> ? V : never;

async function send(e: Exchange): Promise<Problem | undefined> {
  const { op } = e;
  let i = 0;
  const path = op.template.replace(/\{[^}]+\}/g, () => e.segments[i++ % e.segments.length]!);
  const query = e.query.map(([k, v]) => `${k}=${v}`).join("&");
  const url = `${op.web ? t.auth : t.api}${path}${query ? `?${query}` : ""}`;
  const headers: Record<string, string> = {};
  if (e.accept) headers.accept = e.accept;
  if (e.auth === "token") headers.authorization = `token ${token}`;
  if (e.auth === "bad") headers.authorization = "token not-a-real-token-0000000000";
  if (e.auth === "basic") headers.authorization = `Basic ${Buffer.from(`${DEMO.octocat.login}:${DEMO.octocat.password}`).toString("base64")}`;
  if (e.bigHeader) headers["if-none-match"] = `"${"a".repeat(20_000)}"`;
  if (e.body) headers["content-type"] = e.body.type;
  const label = `${op.method} ${url.replace(/a{50,}/g, "a…")}`;
  const res = await request(url, { method: op.method as "GET", headers, body: e.body?.data });
  const text = await res.body.text();
  const status = res.statusCode;
  if (status >= 500) return { request: label, status, problem: text.slice(0, 200) };
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  const mediaType = flat["content-type"]?.split(";")[0]?.trim();
  let parsed: unknown = text.length ? text : undefined;
  if (text.length && mediaType && /json$/.test(mediaType)) {
    try {
      parsed = JSON.parse(text);
    } catch {
      return { request: label, status, problem: "body is not JSON" };
    }
  }
  const verdict = validateResponse(op.id as never, status, parsed, { headers: flat, mediaType });
  if (!verdict.valid) return { request: label, status, problem: verdict.errors.slice(0, 3).map((x) => `${x.path} ${x.message}`).join("; ") };
  const declared = op.headers.get(String(status)) ?? op.headers.get(`${String(status)[0]}XX`) ?? new Set<string>();
  const undeclared = Object.keys(flat).filter((h) => CONTRACT_HEADER.test(h) && !declared.has(h));
  if (undeclared.length) return { request: label, status, problem: `undeclared headers ${undeclared.join(", ")}` };
  return undefined;
}

describe("fuzzing every operation: every answer is declared", () => {
  it(`${RUNS} seeded requests: no 5xx, no undeclared status or header, no response the server's own validation refuses`, async () => {
    const samples = fc.sample(exchange, { numRuns: RUNS, seed: SEED });
    const problems: Problem[] = [];
    // A few at a time: fast, and the order (so the rate-limit counts) stays deterministic enough.
    for (let k = 0; k < samples.length; k += 8) {
      const batch = await Promise.all(
        samples.slice(k, k + 8).map(async (e) => {
          try {
            return await send(e);
          } catch (error) {
            return { request: `${e.op.method} ${e.op.template}`, status: 0, problem: `no answer: ${(error as Error).message}` };
          }
        }),
      );
      for (const p of batch) if (p) problems.push(p);
    }
    const unique = [...new Map(problems.map((p) => [`${p.status} ${p.problem}`, p])).values()];
    expect(unique.map((p) => `${p.status} ${p.request}: ${p.problem}`)).toEqual([]);
    expect(t.violations).toEqual([]);
  }, ceiling(300_000));

  it("ignores unknown query parameters: an operation without `page` does not answer 422 for it", async () => {
    const auth = { authorization: `token ${token}` };
    for (const path of ["/hooks", "/repos/octocat/hello-world/hooks/1", "/repos/octocat/hello-world/issues/events/1", "/orgs/octo-org/hooks/1"]) {
      const res = await request(`${t.api}${path}?page=abc&page=0&per_page=x&sort=-1`, { headers: auth });
      await res.body.text();
      expect(res.statusCode, path).not.toBe(422);
      expect(res.statusCode, path).toBeLessThan(500);
    }
  });
});
