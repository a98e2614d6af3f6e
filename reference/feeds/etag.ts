/**
 * Entity tags of feed pages and the `If-None-Match` comparison. The tag is a hash of exactly the
 * bytes served plus the `Link` header, so two different pages never share one. `If-None-Match`
 * uses the weak comparison (RFC 9110 §13.1.2): `W/"x"` matches `"x"`; a comma-separated list
 * matches when any member does; `*` matches any current page.
 */
import { createHash } from "node:crypto";

export function etagOf(bytes: string, link: string | undefined): string {
  return `"${createHash("sha1").update(link ?? "").update("\n").update(bytes).digest("hex")}"`;
}

/** `W/"x"` → `"x"`: the weak comparison ignores the weakness flag. */
function opaqueTag(tag: string): string {
  return tag.startsWith("W/") ? tag.slice(2) : tag;
}

export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  // The poller's usual header: the very tag it was sent.
  if (header === etag) return true;
  const opaque = opaqueTag(etag);
  for (const part of header.split(",")) {
    const tag = part.trim();
    if (tag === "*" || opaqueTag(tag) === opaque) return true;
  }
  return false;
}
