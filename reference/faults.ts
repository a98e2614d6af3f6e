/**
 * Deliberate defects, for proving the conformance suite: `startServer({ faults })` (or `serve
 * --fault NAME`, repeated) makes the reference server break one rule of the contract each, so a
 * test can show that the case written for that rule fails against it. Each fault is one check
 * at the one place its rule lives (named below); with no fault set, `Context.faults` is
 * undefined and every check is a property read that changes nothing. Never for real use.
 */
export const FAULTS = [
  /** handlers/feeds.ts: If-None-Match is ignored, feeds never answer 304. */
  "etag-ignored",
  /** oauth/redirect-uri.ts: a redirect_uri path is accepted by plain string prefix, without the `/` boundary. */
  "redirect-prefix",
  /** deliveries/signing.ts: signatures over the payload re-serialized (2-space indent), not over the bytes sent. */
  "signature-reserialized",
  /** handlers/feeds.ts + feeds/queries.ts: feeds serve 11 pages, up to 330 events, and accept page=11. */
  "pagination-past-300",
  /** handlers/feeds.ts: a private repository's feed, with its private events, is served to anyone. */
  "private-leak",
  /** handlers/hooks-manage.ts: no ping is sent when a hook is created. */
  "ping-missing",
] as const;

export type Fault = (typeof FAULTS)[number];

export class UnknownFaultError extends Error {
  override name = "UnknownFaultError";
}

export function isFault(name: string): name is Fault {
  return (FAULTS as readonly string[]).includes(name);
}

/** The fault set for the Context: undefined when empty, so a correct server carries nothing. */
export function faultSet(names: readonly string[] | undefined): ReadonlySet<Fault> | undefined {
  if (!names || names.length === 0) return undefined;
  for (const name of names) if (!isFault(name)) throw new UnknownFaultError(`unknown fault "${name}"; known: ${FAULTS.join(", ")}`);
  return new Set(names as Fault[]);
}

/** pagination-past-300: the feed length and the page count it reaches (http/past-page-fault.ts lets page 11 through). */
export const PAST_300_EVENTS = 330;
export const PAST_300_LAST_PAGE = 11;

/**
 * signature-reserialized: what a careless implementation signs — the payload parsed and written
 * again (here with a 2-space indent) instead of the bytes on the wire. A form body's `payload`
 * field is re-serialized the same way; a body that is not JSON is signed as it is.
 */
export function reserializedBody(body: Uint8Array | string): string {
  const text = typeof body === "string" ? body : Buffer.from(body).toString("utf8");
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    const form = new URLSearchParams(text);
    const payload = form.get("payload");
    if (payload === null) return text;
    try {
      return new URLSearchParams({ payload: JSON.stringify(JSON.parse(payload), null, 2) }).toString();
    } catch {
      return text;
    }
  }
}
