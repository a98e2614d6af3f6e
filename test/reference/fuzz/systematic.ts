/**
 * The systematic pass: every operation × every bad-input class that applies to it, in a fixed
 * order, each request otherwise good (existing resources, the operation's own credential) so it
 * reaches the check it is aimed at. Deterministic, so a finding is found on every run, and much
 * cheaper than a random run large enough to hit the same classes by chance.
 *
 * Operations that destroy what later requests use (a DELETE, a token reset) come last. Within an
 * operation the fully good request comes first, before the shapes it would collide with (a hook
 * or a note that already exists).
 */
import type { FuzzBodySent, FuzzRequest } from "./exchange.ts";
import { goodAuth, goodPath, type FuzzContext } from "./credentials.ts";
import type { FuzzOperation } from "./operations.ts";
import { authVariants, BAD_BODIES, BAD_INTEGER_SEGMENTS, BAD_QUERY_VALUES, BAD_STRING_SEGMENTS, HEADER_VARIANTS, PROPERTY_VALUES, UNKNOWN_QUERIES } from "./inputs.ts";

const destroys = (op: FuzzOperation): boolean => op.method === "DELETE" || op.id === "resetApplicationToken";

/** The body in `mediaType`: JSON, or for the form media type a form of the object's fields. */
function encode(value: unknown, mediaType: string): FuzzBodySent {
  if (mediaType !== "application/x-www-form-urlencoded") return { type: "application/json", data: JSON.stringify(value) };
  const form = new URLSearchParams();
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) form.append(k, typeof v === "string" ? v : JSON.stringify(v));
  }
  return { type: mediaType, data: form.toString() };
}

/**
 * The operation's first valid example, with the demo application's real credentials where it has
 * such fields (the examples' are made up), so it passes the handler's own checks too.
 */
function goodBody(op: FuzzOperation, ctx: FuzzContext): Record<string, unknown> {
  const example = op.body?.examples.find((e) => e.valid && e.value && typeof e.value === "object" && !Array.isArray(e.value))?.value ?? {};
  const out: Record<string, unknown> = { ...(example as Record<string, unknown>) };
  if ("client_id" in out) out.client_id = ctx.clientId;
  if ("client_secret" in out) out.client_secret = ctx.clientSecret;
  return out;
}

/** Body shapes: every example of the body's schema, and each property of a good body set to every kind of value or left out. */
function shapes(op: FuzzOperation, ctx: FuzzContext): { kind: string; body: FuzzBodySent }[] {
  const body = op.body;
  if (!body) return [];
  const out: { kind: string; body: FuzzBodySent }[] = [];
  const base = goodBody(op, ctx);
  for (const mediaType of body.mediaTypes) {
    for (const example of body.examples) out.push({ kind: `${mediaType} example ${example.name}`, body: encode(example.value, mediaType) });
    for (const property of body.properties) {
      const { [property]: _left, ...without } = base;
      out.push({ kind: `${mediaType} without ${property}`, body: encode(without, mediaType) });
      for (const value of PROPERTY_VALUES) {
        out.push({ kind: `${mediaType} ${property}=${JSON.stringify(value).slice(0, 24)}`, body: encode({ ...base, [property]: value }, mediaType) });
      }
    }
  }
  return out;
}

export function systematicRequests(operations: readonly FuzzOperation[], ctx: FuzzContext): FuzzRequest[] {
  const ordered = [...operations.filter((op) => !destroys(op)), ...operations.filter(destroys)];
  return ordered.flatMap((op) => {
    const path = goodPath(op, ctx);
    const auth = goodAuth(op.credential, ctx);
    const good = (kind: string, changes: Partial<FuzzRequest> = {}): FuzzRequest => ({ op, kind, path, headers: auth, ...changes });
    const out: FuzzRequest[] = [good("good request", op.body ? { body: encode(goodBody(op, ctx), op.body.mediaTypes[0]!) } : {})];
    for (const variant of authVariants(ctx)) out.push(good(variant.kind, { headers: variant.headers, query: variant.query }));
    for (const variant of HEADER_VARIANTS) out.push(good(variant.kind, { headers: { ...auth, ...variant.headers } }));
    for (const name of op.query) for (const value of [...BAD_QUERY_VALUES, "1&" + name + "=2"]) out.push(good(`query ${name}=${value.slice(0, 12)}`, { query: `${name}=${value}` }));
    for (const query of UNKNOWN_QUERIES) out.push(good(`query ${query.slice(0, 20)}`, { query }));
    for (const param of op.pathParams) {
      for (const value of param.integer ? BAD_INTEGER_SEGMENTS : BAD_STRING_SEGMENTS) out.push(good(`path ${param.name}=${value.slice(0, 12)}`, { path: { ...path, [param.name]: value } }));
    }
    // A body on a GET is never read (HTTP gives it no meaning); every other method may carry one.
    if (op.method !== "GET") for (const { kind, body } of [...BAD_BODIES, ...shapes(op, ctx)]) out.push(good(`body ${kind}`, { body }));
    return out;
  });
}
