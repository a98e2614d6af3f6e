/**
 * Reading a `Link` header (RFC 8288) for the pagination cases of the feeds and the issue events:
 * `<url>; rel="next", <url>; rel="last"`. Commas inside `<…>` belong to the URL, a rel may list
 * several relation types, and targets may be relative, so they are resolved against the URL of
 * the request that returned them.
 */
export type Links = Partial<Record<string, string>>;

export function parseLink(header: string | null | undefined, base: string): Links {
  const out: Links = {};
  if (!header) return out;
  for (const m of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    let target: string;
    try {
      target = new URL(m[1]!, base).href;
    } catch {
      continue;
    }
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(m[2]!);
    for (const name of (rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/).filter(Boolean)) out[name] ??= target;
  }
  return out;
}

/** The `page` query parameter of a link target (1 when absent). */
export function pageOf(url: string): number {
  const value = new URL(url).searchParams.get("page");
  return value === null ? 1 : Number(value);
}
