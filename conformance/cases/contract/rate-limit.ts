/**
 * CONTRACT-RATE-*: the rate-limit headers by value, not by type. The seed (Limits): X-RateLimit-Limit
 * and X-RateLimit-Remaining appear on responses, and Remaining counts the requests made. The
 * contract (spec/DECISIONS.md, D-RATE-RESET): X-RateLimit-Reset in UTC epoch seconds within the
 * hour's window, on every API response (304s and errors too), and the limits 5000 an hour for a
 * user and 60 anonymously — or the `{authenticated, anonymous}` values the profile declares for
 * D-RATE-RESET. With D-RATE-RESET off only the seed's part is checked. A reset in milliseconds, a
 * reset in the past or more than the window ahead, a remaining count above the limit, and a
 * counter that never moves all fail.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import type { HttpResponse } from "../../core/http.ts";
import { check, type Checks } from "../../core/failure.ts";
import { mainToken } from "../profile.ts";

const SEED = "Limits (spec/DECISIONS.md: Rate-limit reset and the exceeded response)";
const WINDOW_S = 3600;
/** Clock skew allowed between the suite and the target. */
const SKEW_S = 120;

function int(c: Checks, res: HttpResponse, name: string, where: string): number {
  const raw = res.headers.get(name);
  c.matches(raw, /^\d+$/, `${where}: ${name} is an integer`, `/headers/${name.toLowerCase()}`);
  return Number(raw);
}

interface Rate {
  limit: number;
  remaining: number;
  /** Undefined when D-RATE-RESET is off (the seed shows no reset). */
  reset?: number;
}

/**
 * The rate-limit headers of a response. `seed`: the response is one the seed gives the headers
 * to (a feed); otherwise their presence is the contract's "every API response" (D-RATE-RESET).
 */
function rateHeaders(ctx: CaseContext, res: HttpResponse, where: string, seed = true): Rate {
  const decided: Checks = ctx.rule("D-RATE-RESET");
  const c: Checks = seed ? check : decided;
  const limit = int(c, res, "X-RateLimit-Limit", where);
  const remaining = int(c, res, "X-RateLimit-Remaining", where);
  c.ok(remaining <= limit, `${where}: X-RateLimit-Remaining (${remaining}) is at most X-RateLimit-Limit (${limit})`, { expected: `≤ ${limit}`, actual: remaining, pointer: "/headers/x-ratelimit-remaining" });
  if (ctx.decisions.off("D-RATE-RESET")) return { limit, remaining };
  const reset = int(decided, res, "X-RateLimit-Reset", where);
  const now = Math.floor(Date.now() / 1000);
  decided.ok(reset >= now - SKEW_S && reset <= now + WINDOW_S + SKEW_S, `${where}: X-RateLimit-Reset is the UTC epoch second the window ends, within the next hour (milliseconds would be ~1000× too large) (D-RATE-RESET)`, {
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
    title: "X-RateLimit-Limit is 5000 (user) or 60 (anonymous), or the declared limits; X-RateLimit-Reset is epoch seconds within the hour, on 200, 304 and 404",
    area: "contract",
    seed: SEED,
    rules: ["S-LIMIT-RATE-HEADERS", "D-RATE-RESET"],
    needs: ["user"],
    async run(ctx) {
      const token = mainToken(ctx);
      const decided: Checks = ctx.rule("D-RATE-RESET");
      const limits = ctx.decisions.value("D-RATE-RESET");
      const timeline = await publicTimeline(ctx, token);
      const user = rateHeaders(ctx, timeline, "GET /events as users[0]");
      decided.equal(user.limit, limits.authenticated, `X-RateLimit-Limit of an authenticated user: ${limits.authenticated} an hour (D-RATE-RESET)`, "/headers/x-ratelimit-limit");
      const anonymous = rateHeaders(ctx, await publicTimeline(ctx), "GET /events anonymously");
      decided.equal(anonymous.limit, limits.anonymous, `X-RateLimit-Limit of an anonymous client: ${limits.anonymous} an hour (D-RATE-RESET)`, "/headers/x-ratelimit-limit");
      if (ctx.decisions.off("D-RATE-RESET")) return;
      // Every API response carries them (D-RATE-RESET): a 304, another resource, an error.
      const etag = timeline.headers.get("etag");
      if (etag) {
        const polled = await ctx.http.request({ operationId: "listPublicEvents", headers: { "if-none-match": etag }, token });
        if (polled.status === 304) rateHeaders(ctx, polled, "GET /events 304", false);
      }
      const catalog = await ctx.http.request({ operationId: "listServiceHooks", token });
      check.status(catalog.status, 200, "GET /hooks");
      rateHeaders(ctx, catalog, "GET /hooks", false);
      const missing = await ctx.http.request({ method: "GET", path: "/conformance-no-such-path", token });
      decided.ok(missing.status >= 400, "GET /conformance-no-such-path is an error", { actual: missing.status, pointer: "/status" });
      rateHeaders(ctx, missing, "GET /conformance-no-such-path (404)", false);
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
        const a = rateHeaders(ctx, await publicTimeline(ctx, token), "GET /events");
        const b = rateHeaders(ctx, await publicTimeline(ctx, token), "GET /events again");
        // A window that ended between the two requests starts the count again: try once more.
        // Without a reset header (D-RATE-RESET off) a count that went up is the only sign of it.
        const newWindow = a.reset !== undefined ? b.reset !== a.reset : b.remaining > a.remaining;
        if (newWindow && attempt < 1) continue;
        check.ok(b.remaining <= a.remaining - 1, `two 200s in a row: X-RateLimit-Remaining goes down (from ${a.remaining}); a counter that never moves fails`, { expected: `≤ ${a.remaining - 1}`, actual: b.remaining, pointer: "/headers/x-ratelimit-remaining" });
        return;
      }
    },
  },
];
