/**
 * FEEDS-VIS-*: who sees events of a private repository (seed: Endpoints › A — user and received
 * feeds include private events only "when authenticated as that user", the `/public` feeds and
 * `/events` are public events, the organization dashboard "requires authentication as that
 * user" — any refusal; the contract: a private repository's feed is 404 to those who cannot see
 * it, the dashboard 401 anonymously and 404 to another user, D-FEED-VISIBILITY). Each case
 * first makes (or finds) an event in the profile's private repository, then looks for it — by
 * id, by repository and by `public: false` — where it must not be.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import { check, SkipCase, type Checks } from "../../core/failure.ts";
import {
  dashboard,
  eventsOf,
  fetchFeed,
  networkEvents,
  orgEvents,
  page,
  publicEvents,
  publicReceivedEvents,
  publicUserEvents,
  receivedEvents,
  repoEvents,
  SEED,
  userEvents,
  type ActivityEvent,
  type Feed,
} from "./support.ts";

interface Secret {
  event: ActivityEvent;
  repo: string;
}

/** A fresh push to the private repository when the profile can make one, else its newest event. */
async function privateEvent(ctx: CaseContext): Promise<Secret> {
  const repo = ctx.profile.repos!.private!;
  let triggered = false;
  try {
    await ctx.trigger("push", { repo });
    triggered = true;
  } catch (error) {
    if (!(error instanceof SkipCase)) throw error;
  }
  const { events } = await page(ctx, repoEvents(repo));
  const event = events.find((e) => e.repo?.name === repo);
  if (!event) ctx.skip(`no event in ${repo} to look for${triggered ? " (the push trigger did not make one there: does it take {repo}?)" : " and the profile has no push trigger"}`);
  check.equal(event.public, false, `an event of the private repository ${repo} is not public`, "/body/0/public");
  return { event, repo };
}

type Rule = "none-private" | "not-this-one";

/** `rule` none-private: no event with public false at all; not-this-one: not the secret's event or repository. */
function checkNoLeak(feed: Feed, who: string, events: ActivityEvent[], secret: Secret, rule: Rule, checks: Checks = check): void {
  events.forEach((e, j) => {
    const leak = e.id === secret.event.id || e.repo?.name === secret.repo || (rule === "none-private" && e.public === false);
    checks.ok(!leak, `${feed.label} shows ${who} a private event (${e.id}, ${e.type} in ${e.repo?.name})`, { expected: "no events of private repositories", actual: { id: e.id, repo: e.repo?.name, public: e.public }, pointer: `/body/${j}` });
  });
}

async function checkFeeds(ctx: CaseContext, feeds: Feed[], token: string | null, who: string, secret: Secret, rule: Rule, checks: Checks = check): Promise<void> {
  for (const feed of feeds) {
    const { events } = await page(ctx, feed, { token });
    checkNoLeak(feed, who, events, secret, rule, checks);
  }
}

/**
 * The private repository's own feed, to someone who cannot see it: the seed lets none of its
 * events through (a refusal, or a page without them); the contract answers 404 (D-FEED-VISIBILITY).
 */
async function checkHidden(ctx: CaseContext, token: string | null, who: string, secret: Secret): Promise<void> {
  const feed = repoEvents(secret.repo);
  const res = await fetchFeed(ctx, feed, { token });
  const where = `${feed.label} for ${who} (a private repository they cannot see)`;
  const decided: Checks = ctx.rule("D-FEED-VISIBILITY");
  decided.status(res.status, 404, where);
  if (res.status === 200) checkNoLeak(feed, who, eventsOf(res, feed), secret, "none-private");
  else check.ok(res.status >= 400 && res.status < 500, `${where}: refused (a 4xx) or answered without its events`, { expected: "a 4xx, or 200 without private events", actual: res.status, pointer: "/status" });
}

/** Feeds anyone may read: the public timeline, the secret's actor's feeds, the org's and the public repository's network. */
function publicFacing(ctx: CaseContext, secret: Secret): Feed[] {
  const actor = secret.event.actor.login;
  const feeds = [publicEvents(), userEvents(actor), publicUserEvents(actor)];
  if (ctx.profile.org) feeds.push(orgEvents(ctx.profile.org));
  if (ctx.profile.repos?.public) feeds.push(networkEvents(ctx.profile.repos.public));
  return feeds;
}

export const VISIBILITY_CASES: Case[] = [
  {
    id: "FEEDS-VIS-001",
    title: "Private repository events are visible to users[0] (with repo) on the repository and user feeds",
    area: "feeds",
    seed: SEED.feeds,
    rules: ["S-FEED-PRIVATE", "D-FEED-VISIBILITY"],
    needs: ["user", "private-repo"],
    async run(ctx) {
      const secret = await privateEvent(ctx);
      const login = ctx.profile.users[0]!.login;
      if (secret.event.actor.login !== login) {
        ctx.note(`the private event's actor is ${secret.event.actor.login}, not ${login}: only the repository feed was checked`);
        return;
      }
      const feed = userEvents(login);
      const { events } = await page(ctx, feed);
      check.ok(events.some((e) => e.id === secret.event.id), `${feed.label} as ${login} includes their private event ${secret.event.id}`, { expected: secret.event.id, actual: events.map((e) => e.id).slice(0, 10), pointer: "/body" });
    },
  },
  {
    id: "FEEDS-VIS-002",
    title: "Private repository events are not visible anonymously",
    area: "feeds",
    seed: SEED.feeds,
    rules: ["S-FEED-PRIVATE", "D-FEED-VISIBILITY"],
    needs: ["user", "private-repo"],
    async run(ctx) {
      const secret = await privateEvent(ctx);
      await checkHidden(ctx, null, "an anonymous caller", secret);
      await checkFeeds(ctx, publicFacing(ctx, secret), null, "an anonymous caller", secret, "none-private");
    },
  },
  {
    id: "FEEDS-VIS-003",
    title: "Private repository events are not visible to users[1], who has no access",
    area: "feeds",
    seed: SEED.feeds,
    rules: ["S-FEED-PRIVATE", "D-FEED-VISIBILITY"],
    needs: ["user", "second-user", "private-repo"],
    async run(ctx) {
      const secret = await privateEvent(ctx);
      const other = ctx.profile.users[1]!;
      const who = `${other.login} (users[1])`;
      await checkHidden(ctx, other.token!, who, secret);
      await checkFeeds(ctx, publicFacing(ctx, secret), other.token!, who, secret, "not-this-one");
      // Their own received feed may hold private events (the seed: "when authenticated as that
      // user"); that these are only of repositories they can see is the contract's.
      await checkFeeds(ctx, [receivedEvents(other.login)], other.token!, who, secret, "not-this-one", ctx.rule("D-FEED-VISIBILITY"));
    },
  },
  {
    id: "FEEDS-VIS-004",
    title: "The public feeds never show private events, not even to their owner",
    area: "feeds",
    seed: SEED.feeds,
    rules: ["S-FEED-PRIVATE", "D-FEED-VISIBILITY"],
    needs: ["user", "private-repo"],
    async run(ctx) {
      const secret = await privateEvent(ctx);
      const login = ctx.profile.users[0]!.login;
      const feeds = [publicEvents(), publicUserEvents(secret.event.actor.login), publicUserEvents(login), publicReceivedEvents(login)];
      if (ctx.profile.org) feeds.push(orgEvents(ctx.profile.org));
      await checkFeeds(ctx, feeds, ctx.profile.users[0]!.token!, `${login} (users[0], who can see the repository)`, secret, "none-private");
    },
  },
  {
    id: "FEEDS-VIS-005",
    title: "The organization dashboard needs authentication as its user (refused otherwise; the contract: 401 anonymous, 404 for another user)",
    area: "feeds",
    seed: SEED.feeds,
    rules: ["S-FEED-DASHBOARD-AUTH", "D-FEED-VISIBILITY", "D-ERRORS"],
    needs: ["user", "org"],
    async run(ctx) {
      const login = ctx.profile.users[0]!.login;
      const feed = dashboard(login, ctx.profile.org!);
      // The seed: "Requires authentication as that user" — any 4xx refusal keeps it; which one is the contract's.
      const decided: Checks = ctx.rule("D-FEED-VISIBILITY");
      const refused = (status: number) => status >= 400 && status < 500;
      const anonymous = await fetchFeed(ctx, feed, { token: null });
      check.ok(refused(anonymous.status), `${feed.label} without a token is refused`, { expected: "a 4xx", actual: anonymous.status, pointer: "/status" });
      decided.status(anonymous.status, 401, `${feed.label} without a token`);
      const own = await fetchFeed(ctx, feed);
      check.status(own.status, 200, `${feed.label} as ${login}`);
      const other = ctx.profile.users[1];
      if (!other?.token) return ctx.note("no users[1] token: another user's access was not checked");
      const foreign = await fetchFeed(ctx, feed, { token: other.token });
      check.ok(refused(foreign.status), `${feed.label} as ${other.login} (another user) is refused`, { expected: "a 4xx", actual: foreign.status, pointer: "/status" });
      decided.status(foreign.status, 404, `${feed.label} as ${other.login} (another user)`);
    },
  },
];
