// issue-events.ts — the three read-only issue event endpoints (per issue, per repository, single event).
import { paged, readableRepo, type ApiCtx } from "./ctx.ts";
import { notFound } from "./http.ts";
import { issueEventObj } from "./present.ts";
import type { Router } from "./router.ts";
import { fullName } from "./store.ts";
import { positiveInt } from "./util.ts";

export function registerIssueEvents(r: Router<ApiCtx>): void {
  r.on("GET", "/repos/:owner/:repo/issues/events", (c, { owner, repo }) => {
    const name = fullName(readableRepo(c, owner, repo));
    const list = c.w.store.issueEvents.filter((e) => e.repo === name).reverse(); // newest first
    return paged(c, list, (e) => issueEventObj(c.w, e, true));
  });

  r.on("GET", "/repos/:owner/:repo/issues/events/:id", (c, { owner, repo, id }) => {
    const name = fullName(readableRepo(c, owner, repo));
    const n = positiveInt(id);
    const ev = c.w.store.issueEvents.find((e) => e.id === n && e.repo === name);
    if (!ev) throw notFound();
    return { status: 200, body: issueEventObj(c.w, ev, true) };
  });

  r.on("GET", "/repos/:owner/:repo/issues/:number/events", (c, { owner, repo, number }) => {
    const name = fullName(readableRepo(c, owner, repo));
    const n = positiveInt(number);
    if (n === undefined || !c.w.store.issue(name, n)) throw notFound();
    const list = c.w.store.issueEvents.filter((e) => e.repo === name && e.issue === n); // oldest first
    return paged(c, list, (e) => issueEventObj(c.w, e, false));
  });
}
