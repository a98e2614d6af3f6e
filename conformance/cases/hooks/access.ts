/**
 * HOOKS-ADMIN-* and HOOKS-URL-*: who may manage a repository's hooks and what a hook may post to
 * (spec/DECISIONS.md, Reference server: hooks and deliveries — Who administers: anyone else gets
 * 404; URLs a hook posts to: absolute http(s) with a host, no user info, else 422 `invalid` on
 * `url`). users[1] can see the public repository but does not administer it.
 */
import type { Case } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { createBody, hookPath, hookRequest, is2xx, placeName, receiverOf, removeCreated, repoPlace } from "./support.ts";

export const ACCESS_CASES: Case[] = [
  {
    id: "HOOKS-ADMIN-001",
    title: "A user who does not administer the repository gets 404 for its hooks (not 403)",
    area: "hooks",
    seed: "Events › Webhook subscription (spec/DECISIONS.md: Who administers)",
    rules: ["D-REF-HOOKS-WHO-ADMINISTERS", "D-MISSING-SCOPE"],
    needs: ["public-repo", "second-user"],
    async run(ctx) {
      const place = repoPlace(ctx);
      if (place.kind !== "repo") return;
      const token = ctx.profile.users[1]?.token;
      if (!token) return ctx.skip("profile has no token for users[1]");
      const res = await ctx.http.request({ operationId: "listRepoHooks", params: { owner: place.owner, repo: place.repo }, token });
      check.status(res.status, 404, `GET ${placeName(place)} as users[1], who does not administer ${place.full}`);
    },
  },
  {
    id: "HOOKS-URL-001",
    title: "A config.url with user info, or not absolute http(s), is refused with 422 invalid on url",
    area: "hooks",
    seed: "Endpoints › C (spec/DECISIONS.md: URLs a hook posts to)",
    rules: ["D-REF-HOOKS-URLS", "D-SCHEMA-VALIDATION-ERROR"],
    needs: ["hook-admin", "public-repo", "receiver"],
    async run(ctx) {
      const place = repoPlace(ctx);
      const good = new URL(receiverOf(ctx).url(hookPath("HOOKS-URL-001")));
      const withUser = `${good.protocol}//conformance:secret@${good.host}${good.pathname}`;
      for (const url of [withUser, good.pathname, `ftp://${good.host}${good.pathname}`]) {
        const res = await hookRequest(ctx, place, "create", { json: createBody(url, {}) });
        // A hook made anyway is removed before anything is checked (and noted when it cannot be).
        if (is2xx(res.status)) await removeCreated(ctx, place, res);
        check.status(res.status, 422, `POST ${placeName(place)} with config.url ${url}`);
        // The errors[] item is the validation-error shape's (D-SCHEMA-VALIDATION-ERROR), read only when it is there.
        if (ctx.decisions.off("D-SCHEMA-VALIDATION-ERROR")) continue;
        const body = res.json<unknown>();
        const list = body !== null && typeof body === "object" ? (body as { errors?: unknown }).errors : undefined;
        const errors = Array.isArray(list) ? (list as { field?: string; code?: string }[]).filter((e) => e !== null && typeof e === "object") : [];
        ctx.rule("D-SCHEMA-VALIDATION-ERROR").ok(errors.some((e) => typeof e.field === "string" && e.field.endsWith("url") && e.code === "invalid"), `config.url ${url}: the 422 names the url field with code invalid`, { expected: { field: "url", code: "invalid" }, actual: list, pointer: "/body/errors" });
      }
    },
  },
];
