// paging.ts — page slicing and RFC 5988 Link headers (first, prev, next, last) with absolute /api/v3 URLs.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Ctx } from "./model.ts";
import { intParam, queryOf } from "./util.ts";

export const FEED = { perPage: 30, maxItems: 300 };
export const LIST = { perPage: 25, maxPerPage: 100 };

/** Feeds: 30 per page fixed, 10 pages; other lists: per_page (default 25, max 100). */
export function paginate<T>(ctx: Ctx, req: FastifyRequest, reply: FastifyReply, items: readonly T[], feed: boolean): T[] {
  const q = queryOf(req.url);
  const per = feed ? FEED.perPage : Math.min(LIST.maxPerPage, intParam(q.get("per_page"), LIST.perPage));
  const all = feed ? items.slice(0, FEED.maxItems) : items;
  const last = Math.max(1, Math.ceil(all.length / per));
  const page = intParam(q.get("page"), 1);
  const origin = new URL(ctx.api).origin;
  const link = (n: number, rel: string): string => {
    const u = new URL(req.url, origin);
    if (feed) u.searchParams.delete("per_page");
    u.searchParams.set("page", String(n));
    return `<${u.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(link(1, "first"), link(Math.min(page - 1, last), "prev"));
  if (page < last) links.push(link(page + 1, "next"), link(last, "last"));
  if (links.length > 0) reply.header("Link", links.join(", "));
  return all.slice((page - 1) * per, page * per);
}
