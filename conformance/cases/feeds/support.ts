/**
 * What the feed cases share: the nine feeds built from the profile, fetching a page (as users[0]
 * by default — 5000 requests an hour rather than an anonymous client's 60), walking a feed by its
 * `rel="next"` links, reading the rate-limit and poll headers, and topping a feed up with
 * triggered pushes when a limit can only be seen on a feed that holds more events than it.
 */
import type { CaseContext } from "../../core/types.ts";
import type { HttpResponse } from "../../core/http.ts";
import { check } from "../../core/failure.ts";
import { parseLink, type Links } from "./link.ts";
import { mainToken, splitRepo } from "../profile.ts";

export const SEED = {
  feeds: "Endpoints › A. Activity event feeds",
  limits: "Limits",
  polling: "Events › Activity feed behaviour",
  notModified: "Errors › Other (304 Not Modified)",
} as const;

export const PAGE_SIZE = 30;
export const MAX_PAGES = 10;
export const MAX_EVENTS = 300;
export const WINDOW_DAYS = 90;

export type FeedOperation =
  | "listPublicEvents"
  | "listRepoEvents"
  | "listNetworkEvents"
  | "listOrgEvents"
  | "listReceivedEvents"
  | "listPublicReceivedEvents"
  | "listUserEvents"
  | "listPublicUserEvents"
  | "listUserOrgEvents";

export interface Feed {
  operationId: FeedOperation;
  params: Record<string, string>;
  /** The path, for messages. */
  label: string;
}

export interface ActivityEvent {
  id: string;
  type: string;
  public: boolean;
  repo: { id: number; name: string; url: string };
  actor: { id: number; login: string };
  created_at: string;
  payload: Record<string, unknown>;
}

export function publicEvents(): Feed {
  return { operationId: "listPublicEvents", params: {}, label: "/events" };
}

export function repoEvents(full: string): Feed {
  const { owner, repo } = splitRepo(full);
  return { operationId: "listRepoEvents", params: { owner, repo }, label: `/repos/${full}/events` };
}

export function userEvents(login: string): Feed {
  return { operationId: "listUserEvents", params: { username: login }, label: `/users/${login}/events` };
}

export function publicUserEvents(login: string): Feed {
  return { operationId: "listPublicUserEvents", params: { username: login }, label: `/users/${login}/events/public` };
}

export function receivedEvents(login: string): Feed {
  return { operationId: "listReceivedEvents", params: { username: login }, label: `/users/${login}/received_events` };
}

export function publicReceivedEvents(login: string): Feed {
  return { operationId: "listPublicReceivedEvents", params: { username: login }, label: `/users/${login}/received_events/public` };
}

export function orgEvents(org: string): Feed {
  return { operationId: "listOrgEvents", params: { org }, label: `/orgs/${org}/events` };
}

export function dashboard(login: string, org: string): Feed {
  return { operationId: "listUserOrgEvents", params: { username: login, org }, label: `/users/${login}/events/orgs/${org}` };
}

export function networkEvents(full: string): Feed {
  const { owner, repo } = splitRepo(full);
  return { operationId: "listNetworkEvents", params: { owner, repo }, label: `/networks/${full}/events` };
}

/**
 * Every feed the profile lets the suite read as users[0], but those it lists as not implemented:
 * a case over all feeds checks the ones the target serves (and skips when it serves none).
 */
export function allFeeds(ctx: CaseContext): Feed[] {
  const { profile } = ctx;
  const login = profile.users[0]!.login;
  const out = [publicEvents(), userEvents(login), publicUserEvents(login), receivedEvents(login), publicReceivedEvents(login)];
  if (profile.repos?.public) out.push(repoEvents(profile.repos.public), networkEvents(profile.repos.public));
  if (profile.org) out.push(orgEvents(profile.org), dashboard(login, profile.org));
  const served = out.filter((f) => !profile.notImplemented?.includes(f.operationId));
  if (served.length === 0) ctx.skip("the profile says none of the feeds is implemented (notImplemented)");
  return served;
}

export interface FetchOptions {
  page?: number;
  ifNoneMatch?: string;
  /** A token; `null` for an anonymous request; default users[0]'s. */
  token?: string | null;
  query?: Record<string, string>;
  /** A link target to follow instead of building the URL. */
  url?: string;
}

export async function fetchFeed(ctx: CaseContext, feed: Feed, options: FetchOptions = {}): Promise<HttpResponse> {
  const token = options.token === undefined ? mainToken(ctx) : options.token ?? undefined;
  return ctx.http.request({
    operationId: feed.operationId,
    params: feed.params,
    ...(options.url ? { path: options.url } : {}),
    query: { ...(options.page !== undefined ? { page: String(options.page) } : {}), ...(options.query ?? {}) },
    headers: options.ifNoneMatch !== undefined ? { "if-none-match": options.ifNoneMatch } : {},
    token,
  });
}

export function eventsOf(res: HttpResponse, feed: Feed): ActivityEvent[] {
  const body = res.json<unknown>();
  check.ok(Array.isArray(body), `${feed.label}: the body is an array of events`, { expected: "an array", actual: typeof body, pointer: "/body" });
  return body as ActivityEvent[];
}

export function linksOf(res: HttpResponse): Links {
  return parseLink(res.headers.get("link"), res.exchange.url);
}

/** An integer header, or a failure naming it. */
export function intHeader(res: HttpResponse, name: string, where: string): number {
  const raw = res.headers.get(name);
  check.matches(raw, /^\d+$/, `${where}: ${name} is an integer`, `/headers/${name.toLowerCase()}`);
  return Number(raw);
}

/** One 200 page of a feed, checked to be a 200 with an array. */
export async function page(ctx: CaseContext, feed: Feed, options: FetchOptions = {}): Promise<{ res: HttpResponse; events: ActivityEvent[]; links: Links }> {
  const res = await fetchFeed(ctx, feed, options);
  check.status(res.status, 200, `${feed.label}${options.page ? `?page=${options.page}` : ""}`);
  return { res, events: eventsOf(res, feed), links: linksOf(res) };
}

export interface Walk {
  pages: { url: string; events: ActivityEvent[]; links: Links; res: HttpResponse }[];
  total: number;
}

/**
 * Page 1, then every `rel="next"` until there is none — at most `limit` pages, so a feed that
 * never ends (or links past page 10) shows as one page too many rather than a hang.
 */
export async function walk(ctx: CaseContext, feed: Feed, options: { token?: string | null; limit?: number } = {}): Promise<Walk> {
  const limit = options.limit ?? MAX_PAGES + 2;
  const pages: Walk["pages"] = [];
  const seen = new Set<string>();
  let next: string | undefined;
  for (let i = 0; i < limit; i++) {
    const { res, events, links } = await page(ctx, feed, { token: options.token, ...(next ? { url: next } : {}) });
    pages.push({ url: res.exchange.url, events, links, res });
    seen.add(res.exchange.url);
    next = links.next;
    if (!next || events.length === 0) break;
    if (seen.has(next)) check.fail(`${feed.label}: rel="next" points back at a page already read`, { actual: next, pointer: "/headers/link" });
  }
  return { pages, total: pages.reduce((n, p) => n + p.events.length, 0) };
}

/** Pushes to the public repository until `count` more events exist (a trigger per event). */
export async function pushEvents(ctx: CaseContext, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await ctx.trigger("push", {});
  if (count > 0) ctx.note(`triggered ${count} push event${count === 1 ? "" : "s"}`);
}

/** Tops `feed` up with pushes until it holds at least `count` events (as far as it shows them). */
export async function atLeast(ctx: CaseContext, feed: Feed, count: number): Promise<void> {
  const held = count <= PAGE_SIZE ? (await page(ctx, feed)).events.length : (await walk(ctx, feed)).total;
  if (held < count) await pushEvents(ctx, count - held);
}
