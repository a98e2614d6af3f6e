// misc.ts — small read endpoints that make the rest usable: the authenticated user, users, repositories, orgs.
import { needUser, readableRepo, type ApiCtx } from "./ctx.ts";
import { notFound } from "./http.ts";
import { orgObj, repoFull, userObj } from "./present.ts";
import type { Router } from "./router.ts";

export function registerMisc(r: Router<ApiCtx>): void {
  r.on("GET", "/user", (c) => ({ status: 200, body: userObj(c.w, needUser(c).login) }));
  r.on("GET", "/users/:username", (c, { username }) => {
    const u = c.w.store.user(username);
    if (!u) throw notFound();
    return { status: 200, body: userObj(c.w, u.login) };
  });
  r.on("GET", "/repos/:owner/:repo", (c, { owner, repo }) => ({ status: 200, body: repoFull(c.w, readableRepo(c, owner, repo)) }));
  r.on("GET", "/orgs/:org", (c, { org }) => {
    const o = c.w.store.org(org);
    if (!o) throw notFound();
    return { status: 200, body: orgObj(c.w, o.login) };
  });
}
