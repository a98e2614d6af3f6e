/**
 * Reading a `Link` header (RFC 8288) for the pagination cases of the feeds, the issue events and
 * the hooks: the client runtime's parser (runtime/client/link-header.ts) by relation type, with
 * each target resolved against the URL of the request that returned it, since a target may be
 * relative. A target that is not a URL is left out, so the case sees the rel as missing.
 */
import { parseLinkHeader } from "../../../runtime/client/link-header.ts";

export type Links = Partial<Record<string, string>>;

export function parseLink(header: string | null | undefined, base: string): Links {
  const out: Links = {};
  for (const [rel, target] of Object.entries(parseLinkHeader(header))) {
    try {
      out[rel] = new URL(target, base).href;
    } catch {
      // not a URL: as if the rel were absent
    }
  }
  return out;
}

/** The `page` query parameter of a link target (1 when absent). */
export function pageOf(url: string): number {
  const value = new URL(url).searchParams.get("page");
  return value === null ? 1 : Number(value);
}
