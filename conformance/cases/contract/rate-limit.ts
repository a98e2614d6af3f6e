/**
 * CONTRACT-RATE-*: the rate-limit headers by value, not by type (seed: Limits — X-RateLimit-Limit
 * and X-RateLimit-Remaining on responses; spec/DECISIONS.md, Rate-limit reset and the exceeded
 * response — X-RateLimit-Reset in UTC epoch seconds, 5000 an hour for a user, 60 anonymously).
 * A reset in milliseconds, a reset in the past or more than the hour's window ahead, a remaining
 * count above the limit, and a counter that never moves all fail.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import type { HttpResponse } from "../../core/http.ts";
import { check } from "../../core/failure.ts";
import { mainToken } from "../profile.ts";

const SEED = "Limits (spec/DECISIONS.md: Rate-limit reset and the exceeded response)";
const WINDOW_S = 3600;
/** Clock skew allowed between the suite and the target. */
const SKEW_S = 120;

function int(res: HttpResponse, name: string, where: string): number {
  const raw = res.headers.get(name);
  check.matches(raw, /^\d+$/, `${where}: ${name} is an integer`, `/headers/${name.toLowerCase()}`);
  return Number(raw);
}

function rateHeaders(res: HttpResponse, where: string): { limit: number; remaining: number; reset: number } {
  const limit = int(res, "X-RateLimit-Limit", where);
  const remaining = int(res, "X-RateLimit-Remaining", where);
  const reset = int(res, "X-RateLimit-Reset", where);
  check.ok(remaining <= limit, `${where}: X-RateLimit-Remaining (${remaining}) is at most X-RateLimit-Limit (${limit})`, { expected: `≤ ${limit}`, actual: remaining, pointer: "/headers/x-ratelimit-remaining" });
  const now = Math.floor(Date.now() / 1000);
  check.ok(reset >= now - SKEW_S && reset <= now + WINDOW_S + SKEW_S, `${where}: X-RateLimit-Reset is the UTC epoch second the window ends, within the next hour (milliseconds would be ~1000× too large)`, {
    expected: `${now} .. ${now + WINDOW_S} (epoch seconds)`,
    actual: reset,
    pointer: "/headers/x-ratelimit-reset",
  });
  return { limit, remaining, reset };
}

async function publicTimeline(ctx: CaseContext, token?: string): Promise<HttpResponse> {
  const res = await ctx.http.request({ operationId: "listPublicEvents", ...(token ? { token } : {}) });
  check.status(res.status, 200, `GET /events${token ? "" : " (anonymous)"}`);
  return res;
}

export const RATE_CASES: Case[] = [
  {
    id: "CONTRACT-RATE-001",
    title: "X-RateLimit-Limit is 5000 (user) or 60 (anonymous); X-RateLimit-Reset is epoch seconds within the hour, on 200, 304 and 404",
    area: "contract",
    seed: SEED,
    rules: ["S-LIMIT-RATE-HEADERS", "D-RATE-RESET"],
    needs: ["user"],
    async run(ctx) {
      const token = mainToken(ctx);
      const timeline = await publicTimeline(ctx, token);
      const user = rateHeaders(timeline, "GET /events as users[0]");
      check.equal(user.limit, 5000, "X-RateLimit-Limit of an authenticated user: 5000 an hour", "/headers/x-ratelimit-limit");
      const anonymous = rateHeaders(await publicTimeline(ctx), "GET /events anonymously");
      check.equal(anonymous.limit, 60, "X-RateLimit-Limit of an anonymous client: 60 an hour", "/headers/x-ratelimit-limit");
      // Every API response carries them (DECISIONS): a 304, another resource, an error.
      const etag = timeline.headers.get("etag");
      if (etag) {
        const polled = await ctx.http.request({ operationId: "listPublicEvents", headers: { "if-none-match": etag }, token });
        if (polled.status === 304) rateHeaders(polled, "GET /events 304");
      }
      const catalog = await ctx.http.request({ operationId: "listServiceHooks", token });
      check.status(catalog.status, 200, "GET /hooks");
      rateHeaders(catalog, "GET /hooks");
      const missing = await ctx.http.request({ method: "GET", path: "/conformance-no-such-path", token });
      check.status(missing.status, 404, "GET /conformance-no-such-path");
      rateHeaders(missing, "GET /conformance-no-such-path (404)");
    },
  },
  {
    id: "CONTRACT-RATE-002",
    title: "A counted request lowers X-RateLimit-Remaining within a window",
    area: "contract",
    seed: SEED,
    rules: ["S-LIMIT-RATE-HEADERS", "D-RATE-RESET"],
    needs: ["user"],
    async run(ctx) {
      const token = mainToken(ctx);
      for (let attempt = 0; ; attempt++) {
        const a = rateHeaders(await publicTimeline(ctx, token), "GET /events");
        const b = rateHeaders(await publicTimeline(ctx, token), "GET /events again");
        // A window that ended between the two requests starts the count again: try once more.
        if (b.reset !== a.reset && attempt < 1) continue;
        check.ok(b.remaining <= a.remaining - 1, `two 200s in a row: X-RateLimit-Remaining goes down (from ${a.remaining}); a counter that never moves fails`, { expected: `≤ ${a.remaining - 1}`, actual: b.remaining, pointer: "/headers/x-ratelimit-remaining" });
        return;
      }
    },
  },
];
