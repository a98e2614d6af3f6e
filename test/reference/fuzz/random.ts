/**
 * The random pass: seeded fast-check requests that combine the bad-input classes (a bad path
 * value with an odd query, a wrong body with the wrong credential…) and add values no list has —
 * arbitrary strings in paths and queries, arbitrary JSON bodies. The systematic pass covers each
 * class alone; this one looks for what only a combination shows.
 */
import fc from "fast-check";
import type { FuzzRequest } from "./exchange.ts";
import { goodAuth, goodPath, type FuzzContext } from "./credentials.ts";
import type { FuzzOperation } from "./operations.ts";
import { authVariants, BAD_BODIES, BAD_INTEGER_SEGMENTS, BAD_QUERY_VALUES, BAD_STRING_SEGMENTS, HEADER_VARIANTS, UNKNOWN_QUERIES } from "./inputs.ts";

export function randomRequests(operations: readonly FuzzOperation[], ctx: FuzzContext, runs: number, seed: number): FuzzRequest[] {
  const auths = authVariants(ctx);
  const small = BAD_BODIES.filter((b) => !b.kind.startsWith("too large"));
  const arbitrary = fc.constantFrom(...operations).chain((op) => {
    const good = goodPath(op, ctx);
    const segment = (name: string, integer: boolean) =>
      fc.oneof(
        { weight: 4, arbitrary: fc.constant(good[name]!) },
        { weight: 2, arbitrary: fc.constantFrom(...(integer ? BAD_INTEGER_SEGMENTS : BAD_STRING_SEGMENTS)) },
        { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map(encodeURIComponent) },
      );
    const queryValue = fc.oneof(fc.constantFrom(...BAD_QUERY_VALUES, "1", "2"), fc.string({ maxLength: 8 }).map(encodeURIComponent));
    const pair = fc.tuple(fc.constantFrom(...op.query, "page", "access_token", "x"), queryValue).map(([k, v]) => `${k}=${v}`);
    const json = fc.jsonValue({ maxDepth: 2 }).map((v) => ({ type: "application/json", data: JSON.stringify(v) }));
    const example = op.body?.examples.length ? fc.constantFrom(...op.body.examples).map((e) => ({ type: op.body!.mediaTypes[0], data: JSON.stringify(e.value) })) : json;
    return fc.record({
      path: fc.record(Object.fromEntries(op.pathParams.map((p) => [p.name, segment(p.name, p.integer)]))) as fc.Arbitrary<Record<string, string>>,
      query: fc.oneof(fc.array(pair, { maxLength: 3 }).map((q) => q.join("&")), fc.constantFrom(...UNKNOWN_QUERIES)),
      auth: fc.oneof({ weight: 3, arbitrary: fc.constant(goodAuth(op.credential, ctx)) }, { weight: 2, arbitrary: fc.constantFrom(...auths.map((a) => a.headers)) }),
      extra: fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.constantFrom(...HEADER_VARIANTS.map((h) => h.headers)) }),
      body: op.method === "GET" ? fc.constant(undefined) : fc.oneof(fc.constant(undefined), json, example, fc.constantFrom(...small.map((b) => b.body))),
    }).map((r): FuzzRequest => ({ op, kind: "random", path: r.path, query: r.query, headers: { ...r.auth, ...r.extra }, body: r.body }));
  });
  return fc.sample(arbitrary, { numRuns: runs, seed });
}
