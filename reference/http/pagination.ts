/**
 * Page-numbered lists outside the feeds (DECISIONS: `page` from 1, 30 per page, `Link` header):
 * the slice to read and the RFC 8288 `Link` value — `next` and `last` before the last page,
 * `first` and `prev` past the first, absent when everything fits on one page.
 */
export const PAGE_SIZE = 30;

export interface PageWindow {
  limit: number;
  offset: number;
}

/** The rows to read for `page`; a page no integer offset can reach reads nothing. */
export function pageWindow(page: number, pageSize = PAGE_SIZE): PageWindow {
  if (!Number.isSafeInteger(page) || page < 1) return { limit: 0, offset: 0 };
  return { limit: pageSize, offset: (page - 1) * pageSize };
}

export function lastPage(total: number, pageSize = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** `base` is the list's absolute URL without a query; undefined when there is nothing to link. */
export function linkHeader(base: string, page: number, total: number, pageSize = PAGE_SIZE): string | undefined {
  const last = lastPage(total, pageSize);
  if (last === 1 && page === 1) return undefined;
  const url = (n: number) => `${base}?page=${n}`;
  const links: string[] = [];
  if (page < last) links.push(`<${url(page + 1)}>; rel="next"`, `<${url(last)}>; rel="last"`);
  if (page > 1) links.push(`<${url(1)}>; rel="first"`, `<${url(Math.min(page - 1, last))}>; rel="prev"`);
  return links.length > 0 ? links.join(", ") : undefined;
}
