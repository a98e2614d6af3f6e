/**
 * The nine activity feeds (seed *Endpoints › A*): newest first, 30 per page, at most 10 pages and
 * 300 events of the last 90 days (feeds/queries.ts), with visibility as the seed and DECISIONS say
 * (feeds/access.ts). Polling is the hot path: each page is served from pre-serialized bytes with
 * its `ETag` (feeds/cache.ts), and `If-None-Match` with that tag — strong, weak or in a list, or
 * `*` — answers 304 without a body, which the API hooks do not count against the rate limit.
 *
 * A 200 hands the runtime the cached bytes the ETag was computed over (`serializedBody`, sent as
 * is) with the parsed value beside them (what response validation checks); a 304 sends no body.
 */
import type { HostHandlers, RawRequest } from "../../generated/server/index.ts";
import type { ActivityEvent } from "../../generated/types.ts";
import type { Context } from "../context.ts";
import { FeedCache } from "../feeds/cache.ts";
import { ifNoneMatchHits } from "../feeds/etag.ts";
import { PollInterval } from "../feeds/poll-interval.ts";
import { acceptedHeader } from "../http/scope-headers.ts";
import { FEED_MAX_EVENTS, feedKey, loadFeed, type FeedQuery } from "../feeds/queries.ts";
import { findAccount, findRepo, hasAccess, isMember, privateReader, type FeedAccount, type FeedRepo } from "../feeds/access.ts";
import { Memo } from "../feeds/memo.ts";
import { NotModifiedIndex } from "../feeds/not-modified.ts";
import { eventsVersion } from "../feeds/version.ts";
import { errorBody } from "../http/errors.ts";
import type { Viewer } from "../http/viewer.ts";
import { ANONYMOUS } from "../http/viewer.ts";
import { MESSAGES } from "../http/basic-auth.ts";
import type { Supplied } from "./supplied.ts";

const notFound = { status: 404, headers: {}, body: errorBody("Not Found") } as const;

/** A feed to serve: the query (which fixes the cache key) and the canonical path for `Link`. */
type Found = { query: FeedQuery; path: string };
type Resolved = Found | typeof notFound;

/** What `serve` answers: members every feed operation's response union has (so no cast is needed). */
type FeedAnswer =
  | { status: 200; headers: { ETag: string; "X-Poll-Interval": number; Link?: string }; body: ActivityEvent[]; serializedBody: Buffer }
  | { status: 304; headers: { ETag: string; "X-Poll-Interval": number } };

export interface FeedServing {
  cache: FeedCache;
  poll: PollInterval;
  lookups: Memo;
  /** The decisions the polling shortcut (http/feed-shortcut.ts) may repeat. */
  notModified: NotModifiedIndex;
}

export function feedServing(): FeedServing {
  return { cache: new FeedCache(), poll: new PollInterval(), lookups: new Memo(), notModified: new NotModifiedIndex() };
}

function viewerOf(raw: RawRequest): Viewer {
  return raw.request.viewer ?? ANONYMOUS;
}

function isSelf(viewer: Viewer, userId: number): boolean {
  return viewer.user?.id === userId;
}

export function feedHandlers(ctx: Context, serving: FeedServing = ctx.feeds ?? feedServing()): Partial<HostHandlers<"api", Supplied>> {
  const { db } = ctx;
  // One version read per request, shared by the lookups and the page cache.
  const versions = new WeakMap<RawRequest, Promise<string>>();
  const version = (raw: RawRequest) => {
    let v = versions.get(raw);
    if (!v) versions.set(raw, (v = eventsVersion(db)));
    return v;
  };
  const repoNamed = async (raw: RawRequest, owner: string, name: string) =>
    serving.lookups.get(`r:${owner.toLowerCase()}/${name.toLowerCase()}`, await version(raw), () => findRepo(db, owner, name)) as Promise<FeedRepo | undefined>;
  const accountNamed = async (raw: RawRequest, login: string) =>
    serving.lookups.get(`a:${login.toLowerCase()}`, await version(raw), () => findAccount(db, login)) as Promise<FeedAccount | undefined>;
  const canAccess = async (raw: RawRequest, userId: number, repoId: number) =>
    serving.lookups.get(`x:${userId}:${repoId}`, await version(raw), () => hasAccess(db, userId, repoId));
  const member = async (raw: RawRequest, orgId: number, userId: number) =>
    serving.lookups.get(`m:${orgId}:${userId}`, await version(raw), () => isMember(db, orgId, userId));

  async function serve(resolved: Found, raw: RawRequest, page: number | undefined, ifNoneMatch: string | undefined): Promise<FeedAnswer> {
    const interval = serving.poll.hit();
    const n = page ?? 1;
    const current = await version(raw);
    // The canonical path is part of the key: a page's `Link` (and so its ETag) names its URL, and
    // two URLs can read one feed alike (`/users/:u/events` anonymously and `…/events/public`).
    const feed = `${feedKey(resolved.query)} ${resolved.path}`;
    const cached = await serving.cache.page(feed, current, n, `${ctx.urls.api}${resolved.path}`, () => loadFeed(db, resolved.query, ctx.now()));
    const headers = { ETag: cached.etag, "X-Poll-Interval": interval };
    const key = NotModifiedIndex.key(viewerOf(raw), raw.url);
    if (key !== undefined) serving.notModified.remember(key, current, { etag: cached.etag, feed, page: n, accepted: acceptedHeader(raw.request.policy) });
    if (ifNoneMatchHits(ifNoneMatch, cached.etag)) return { status: 304, headers };
    return { status: 200, headers: cached.link ? { ...headers, Link: cached.link } : headers, body: cached.value, serializedBody: cached.bytes };
  }

  /** A user's own feed: private events only for that user, with the `repo` scope. */
  async function userFeed(raw: RawRequest, username: string, kind: "received" | "user", allowPrivate: boolean): Promise<Resolved> {
    const viewer = viewerOf(raw);
    const account = await accountNamed(raw, username);
    if (!account) return notFound;
    const reader = allowPrivate && isSelf(viewer, account.id) ? privateReader(viewer) : undefined;
    const suffix = kind === "received" ? "received_events" : "events";
    return { query: { kind, userId: account.id, reader }, path: `/users/${account.login}/${suffix}${allowPrivate ? "" : "/public"}` };
  }

  /** A user's feed, or the 404 for an unknown user. */
  async function serveUser(resolved: Resolved, raw: RawRequest, page: number | undefined, ifNoneMatch: string | undefined): Promise<FeedAnswer | typeof notFound> {
    return "query" in resolved ? serve(resolved, raw, page, ifNoneMatch) : resolved;
  }

  return {
    listPublicEvents: async ({ query, headers, raw }) => serve({ query: { kind: "public" }, path: "/events" }, raw, query.page, headers["If-None-Match"]),

    listRepoEvents: async ({ params, query, headers, raw }) => {
      const repo = await repoNamed(raw, params.owner, params.repo);
      if (!repo) return notFound;
      const reader = privateReader(viewerOf(raw));
      // A public repository may hold private events from before it was made public.
      const sees = reader !== undefined && (await canAccess(raw, reader, repo.id));
      if (repo.private && !sees) return notFound;
      return serve({ query: { kind: "repo", repoId: repo.id, reader: sees ? reader : undefined }, path: `/repos/${repo.owner_login}/${repo.name}/events` }, raw, query.page, headers["If-None-Match"]);
    },

    listNetworkEvents: async ({ params, query, headers, raw }) => {
      const repo = await repoNamed(raw, params.owner, params.repo);
      if (!repo) return notFound;
      if (repo.private) {
        const reader = privateReader(viewerOf(raw));
        if (reader === undefined || !(await canAccess(raw, reader, repo.id))) return notFound;
      }
      return serve({ query: { kind: "network", repoId: repo.id }, path: `/networks/${repo.owner_login}/${repo.name}/events` }, raw, query.page, headers["If-None-Match"]);
    },

    listOrgEvents: async ({ params, query, headers, raw }) => {
      const org = await accountNamed(raw, params.org);
      if (!org || org.type !== "Organization") return notFound;
      return serve({ query: { kind: "org", orgId: org.id }, path: `/orgs/${org.login}/events` }, raw, query.page, headers["If-None-Match"]);
    },

    listReceivedEvents: async ({ params, query, headers, raw }) => serveUser(await userFeed(raw, params.username, "received", true), raw, query.page, headers["If-None-Match"]),
    listPublicReceivedEvents: async ({ params, query, headers, raw }) =>
      serveUser(await userFeed(raw, params.username, "received", false), raw, query.page, headers["If-None-Match"]),
    listUserEvents: async ({ params, query, headers, raw }) => serveUser(await userFeed(raw, params.username, "user", true), raw, query.page, headers["If-None-Match"]),
    listPublicUserEvents: async ({ params, query, headers, raw }) =>
      serveUser(await userFeed(raw, params.username, "user", false), raw, query.page, headers["If-None-Match"]),

    listUserOrgEvents: async ({ params, query, headers, raw }) => {
      const viewer = viewerOf(raw);
      // The operation takes no anonymous access; the hooks leave the refusal to the handler.
      if (!viewer.user) return { status: 401, headers: {}, body: errorBody(MESSAGES.missing) };
      const [user, org] = await Promise.all([accountNamed(raw, params.username), accountNamed(raw, params.org)]);
      if (!user || !org || org.type !== "Organization" || !isSelf(viewer, user.id) || !(await member(raw, org.id, user.id))) return notFound;
      return serve(
        { query: { kind: "userOrg", orgId: org.id, reader: privateReader(viewer) }, path: `/users/${user.login}/events/orgs/${org.login}` },
        raw,
        query.page,
        headers["If-None-Match"],
      );
    },
  };
}
