/**
 * CONTRACT-ESCAPE-*: a path with a malformed `%` escape (D-REQ-MALFORMED-ESCAPE: 400 `Bad
 * Request` in the error shape, with `X-RateLimit-*` — the request counts as an anonymous one of
 * its client address, since a path that cannot be read is not read for credentials either; not
 * 404, because an undecodable path names nothing at all). `%c0%ae` is valid escaping, a path value
 * like any other, so it is not tried here.
 */
import type { Case } from "../../core/types.ts";
import { check, type Checks } from "../../core/failure.ts";
import { publicRepo } from "../profile.ts";

export const ESCAPE_CASES: Case[] = [
  {
    id: "CONTRACT-ESCAPE-001",
    title: "A malformed % escape in a path (%zz, a truncated %E0%A4%A) is 400 in the error shape with the rate-limit headers",
    area: "contract",
    seed: "Errors › Other (spec/DECISIONS.md: Request handling)",
    rules: ["D-REQ-MALFORMED-ESCAPE", "D-ERRORS"],
    needs: ["public-repo"],
    async run(ctx) {
      const { owner, repo } = publicRepo(ctx);
      const errors: Checks = ctx.rule("D-ERRORS");
      for (const path of [`/repos/${owner}/${repo}%zz/events`, `/repos/${owner}/${repo}/issues/%E0%A4%A/events`]) {
        const res = await ctx.http.request({ method: "GET", path });
        // fetch sends the path as written: a URL parser would have to decode it to change it.
        check.ok(new URL(res.exchange.url).pathname.includes(path.includes("%zz") ? "%zz" : "%E0%A4%A"), "the malformed escape went out as written", { actual: res.exchange.url });
        check.status(res.status, 400, `GET ${path}`);
        let body: { message?: unknown; documentation_url?: unknown } = {};
        try {
          body = JSON.parse(res.text) as typeof body;
        } catch {
          check.fail(`GET ${path}: the 400 body is the error shape {message, documentation_url}`, { expected: "JSON", actual: res.text.slice(0, 200), pointer: "/body" });
        }
        errors.ok(typeof body.message === "string" && typeof body.documentation_url === "string", `GET ${path}: the body is the error shape {message, documentation_url}`, { actual: body, pointer: "/body" });
        for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining"]) check.matches(res.headers.get(name), /^\d+$/, `GET ${path}: ${name} (the request counts against its address)`, `/headers/${name}`);
      }
    },
  },
];
