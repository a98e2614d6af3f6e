/**
 * The SQL of each feed: at most 300 event bodies (10 pages of 30), newest first, created within
 * the 90 days before `now` (seed *Limits*). `reader` is the user whose accessible private events
 * may be included (see access.ts), or undefined for public events only. Bodies come back as
 * JSON text, ready to be joined into a page (cache.ts).
 */
import type { Queryable } from "../db/database.ts";
import { accessibleRepoIds } from "./access.ts";

export const FEED_MAX_EVENTS = 300;
export const FEED_MAX_AGE_DAYS = 90;

export type FeedQuery =
  | { kind: "public" }
  | { kind: "repo"; repoId: number; reader?: number }
  | { kind: "network"; repoId: number }
  | { kind: "org"; orgId: number }
  | { kind: "received"; userId: number; reader?: number }
  | { kind: "user"; userId: number; reader?: number }
  | { kind: "userOrg"; orgId: number; reader?: number };

/** The cache key: the feed and the visibility class (public only, or one reader's private view). */
export function feedKey(q: FeedQuery): string {
  return Object.entries(q)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join("&");
}

/** `where` conditions (params from $3 on; $1 = cutoff, $2 = limit) for a query. */
function conditions(q: FeedQuery): { where: string; params: unknown[] } {
  // Private events only of repositories the reader can access: access can be lost after the event.
  const visible = (reader: number | undefined, n: number) =>
    reader === undefined ? "e.public" : `(e.public or e.repo_id in (${accessibleRepoIds(`$${n}`)}))`;
  switch (q.kind) {
    case "public":
      return { where: "e.public", params: [] };
    case "repo":
      return { where: `e.repo_id = $3 and ${visible(q.reader, 4)}`, params: q.reader === undefined ? [q.repoId] : [q.repoId, q.reader] };
    case "network":
      // The whole fork tree: up to its root, then every descendant of the root.
      return {
        where: `e.public and e.repo_id in (
          with recursive up(id, parent) as (
            select id, fork_of from repositories where id = $3
            union select r.id, r.fork_of from repositories r join up on r.id = up.parent),
          root as (select id from up where parent is null),
          down(id) as (select id from root union select r.id from repositories r join down on r.fork_of = down.id)
          select id from down)`,
        params: [q.repoId],
      };
    case "org":
      return { where: "e.public and e.org_id = $3", params: [q.orgId] };
    case "received":
      return {
        where: `(e.repo_id in (select repo_id from watches where user_id = $3)
                 or e.actor_id in (select followee_id from follows where follower_id = $3))
                and ${visible(q.reader, 4)}`,
        params: q.reader === undefined ? [q.userId] : [q.userId, q.reader],
      };
    case "user":
      return { where: `e.actor_id = $3 and ${visible(q.reader, 4)}`, params: q.reader === undefined ? [q.userId] : [q.userId, q.reader] };
    case "userOrg":
      return { where: `e.org_id = $3 and ${visible(q.reader, 4)}`, params: q.reader === undefined ? [q.orgId] : [q.orgId, q.reader] };
  }
}

export async function loadFeed(db: Queryable, q: FeedQuery, now: Date): Promise<string[]> {
  const { where, params } = conditions(q);
  const cutoff = new Date(now.getTime() - FEED_MAX_AGE_DAYS * 86_400_000).toISOString();
  const rows = await db.query<{ body: string }>(
    `select e.body::text as body from events e
      where e.created_at >= $1 and ${where}
      order by e.created_at desc, e.id desc limit $2`,
    [cutoff, FEED_MAX_EVENTS, ...params],
  );
  return rows.map((r) => r.body);
}
