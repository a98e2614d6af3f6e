/**
 * The broken variants: one rule broken on the wire per variant, by the fault proxy (proxy.ts) in
 * front of the correct reference. Each names the rule it breaks (an ID of the rule table,
 * conformance/rules), its class (the kinds of rule a suite tends to miss: issue 15), the cases to
 * run (`only`, as `--only` takes them) and the cases that must fail. The first six are the ones
 * the reference used to carry as `--fault` switches; the rest break one rule of each class.
 */
import { randomUUID } from "node:crypto";
import type { Profile } from "../../../conformance/core/profile.ts";
import type { DecisionSetting } from "../../../conformance/core/decisions.ts";
import { header, type Answer, type Exchange, type Fault, type Headers } from "./proxy.ts";
import { ISSUE_33_VARIANTS } from "./variants-issue-33.ts";
import { ISSUE_40_VARIANTS } from "./variants-issue-40.ts";

export type RuleClass = "behaviour" | "value" | "fail-not-note" | "order" | "conditional-presence" | "path-never-taken" | "redirect";

export interface Variant {
  name: string;
  rule: string;
  class: RuleClass;
  only: string;
  /** Case IDs that must fail against this variant (others selected may fail too). */
  fails: string[];
  /**
   * Decisions the run switches off besides the profile's: a case for a seed rule is proven to
   * catch the defect on its own, with the contract's choices around it (and the older cases that
   * named only those) out of the way.
   */
  decisions?: Record<string, DecisionSetting>;
  fault(profile: Profile): Fault;
}

const FEED = /^\/(events|repos\/[^/]+\/[^/]+\/events|networks\/[^/]+\/[^/]+\/events|orgs\/[^/]+\/events|users\/[^/]+\/(received_events(\/public)?|events(\/public|\/orgs\/[^/]+)?))$/;
const ISSUE_EVENTS = /^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/events$/;

function pathOf(ex: Exchange): string {
  return ex.url.split("?")[0]!;
}

function isJson(res: Answer): boolean {
  return (header(res.headers, "content-type") ?? "").includes("json") && res.status === 200;
}

/** The fault that rewrites every JSON array the API host answers on a path matching `path`. */
function listsRewritten(path: RegExp, change: (items: Record<string, unknown>[]) => Record<string, unknown>[]) {
  return () => ({
    response(side: string, req: Parameters<typeof pathOf>[0], res: Answer) {
      if (side === "api" && path.test(pathOf(req))) mapArray(res, change);
    },
  });
}

/** A JSON array response rewritten by `change`. */
function mapArray(res: Answer, change: (items: Record<string, unknown>[]) => Record<string, unknown>[]): void {
  if (!isJson(res)) return;
  const body = JSON.parse(res.body.toString("utf8")) as unknown;
  if (Array.isArray(body)) res.body = Buffer.from(JSON.stringify(change(body as Record<string, unknown>[])));
}

function scaleHeader(headers: Headers, name: string, factor: number): void {
  const v = header(headers, name);
  if (v !== undefined && /^\d+$/.test(v)) headers[name] = String(Number(v) * factor);
}

function reserialize(d: Exchange): void {
  const text = d.body.toString("utf8");
  if ((header(d.headers, "content-type") ?? "").startsWith("application/x-www-form-urlencoded")) {
    const payload = new URLSearchParams(text).get("payload");
    if (payload !== null) d.body = Buffer.from(new URLSearchParams({ payload: JSON.stringify(JSON.parse(payload), null, 2) }).toString());
  } else d.body = Buffer.from(JSON.stringify(JSON.parse(text), null, 2));
}

export const VARIANTS: Variant[] = [
  {
    name: "etag-ignored",
    rule: "S-FEED-CONDITIONAL",
    class: "behaviour",
    only: "FEEDS-ETAG-*",
    fails: ["FEEDS-ETAG-002", "FEEDS-ETAG-003", "FEEDS-ETAG-004"],
    fault: () => ({
      request(side, req) {
        if (side === "api") delete req.headers["if-none-match"];
      },
    }),
  },
  {
    name: "redirect-prefix",
    rule: "S-OAUTH-REDIRECT-URI",
    class: "redirect",
    only: "OAUTH-REDIRECT-007",
    fails: ["OAUTH-REDIRECT-007"],
    // A redirect_uri extending the callback path without a "/" is passed on as a subdirectory:
    // the authorize page accepts what a plain string-prefix check would.
    fault: (profile) => ({
      request(side, req) {
        if (side !== "auth" || pathOf(req) !== "/login/oauth/authorize") return;
        const url = new URL(req.url, "http://proxy");
        const given = url.searchParams.get("redirect_uri");
        const cb = profile.app!.callbackUrl;
        if (!given || !given.startsWith(cb) || given === cb || "/?#".includes(given[cb.length]!)) return;
        url.searchParams.set("redirect_uri", `${cb}/${given.slice(cb.length)}`);
        req.url = url.pathname + url.search;
      },
    }),
  },
  {
    name: "redirect-state-dropped",
    rule: "S-OAUTH-STATE",
    class: "redirect",
    only: "OAUTH-STATE-001,OAUTH-STATE-002",
    fails: ["OAUTH-STATE-001", "OAUTH-STATE-002"],
    // Every redirect of the web host loses its state: the client cannot tell its own flow from a forged one.
    fault: () => ({
      response(side, _req, res) {
        const location = header(res.headers, "location");
        if (side !== "auth" || !location || res.status < 300 || res.status >= 400) return;
        const url = new URL(location, "http://proxy");
        if (!url.searchParams.has("state")) return;
        url.searchParams.delete("state");
        res.headers.location = /^https?:/.test(location) ? url.href : url.pathname + url.search;
      },
    }),
  },
  {
    name: "pagination-past-300",
    rule: "S-LIMIT-PAGES",
    class: "behaviour",
    only: "FEEDS-PAGE-003",
    fails: ["FEEDS-PAGE-003"],
    // page=11 is served (as page 10) instead of refused.
    fault: () => ({
      request(side, req) {
        if (side !== "api" || !FEED.test(pathOf(req))) return;
        const url = new URL(req.url, "http://proxy");
        if (url.searchParams.get("page") === "11") url.searchParams.set("page", "10");
        req.url = url.pathname + url.search;
      },
    }),
  },
  {
    name: "private-leak",
    rule: "S-FEED-PRIVATE",
    class: "behaviour",
    only: "FEEDS-VIS-002,FEEDS-VIS-003",
    fails: ["FEEDS-VIS-002", "FEEDS-VIS-003"],
    // Feeds are read as users[0] whoever asks: private events reach the anonymous and users[1].
    fault: (profile) => ({
      request(side, req) {
        if (side === "api" && req.method === "GET" && FEED.test(pathOf(req))) req.headers.authorization = `token ${profile.users[0]!.token}`;
      },
    }),
  },
  {
    name: "signature-reserialized",
    rule: "D-SIGNATURE",
    class: "behaviour",
    only: "WEBHOOK-SIGNATURE-001,WEBHOOK-SIGNATURE-003",
    fails: ["WEBHOOK-SIGNATURE-001", "WEBHOOK-SIGNATURE-003"],
    // The body re-serialized (2-space indent) after signing: the signatures no longer cover the bytes sent.
    fault: () => ({ delivery: reserialize }),
  },
  {
    name: "ping-missing",
    rule: "S-PING",
    class: "behaviour",
    only: "WEBHOOK-PING-*",
    fails: ["WEBHOOK-PING-001", "WEBHOOK-PING-002"],
    fault: () => ({ delivery: (d) => (header(d.headers, "x-service-event") === "ping" ? "drop" : undefined) }),
  },
  {
    name: "poll-interval-in-ms",
    rule: "S-FEED-POLL-INTERVAL",
    class: "value",
    only: "FEEDS-POLL-001",
    fails: ["FEEDS-POLL-001"],
    fault: () => ({
      response(side, req, res) {
        if (side === "api" && FEED.test(pathOf(req))) scaleHeader(res.headers, "x-poll-interval", 1000);
      },
    }),
  },
  {
    name: "ratelimit-reset-in-ms",
    rule: "D-RATE-RESET",
    class: "value",
    only: "CONTRACT-RATE-001",
    fails: ["CONTRACT-RATE-001"],
    fault: () => ({
      response(side, _req, res) {
        if (side === "api") scaleHeader(res.headers, "x-ratelimit-reset", 1000);
      },
    }),
  },
  {
    name: "ratelimit-never-counts",
    rule: "S-LIMIT-RATE-HEADERS",
    class: "fail-not-note",
    only: "CONTRACT-RATE-002,FEEDS-ETAG-002",
    fails: ["CONTRACT-RATE-002", "FEEDS-ETAG-002"],
    fault: () => ({
      response(side, _req, res) {
        const limit = header(res.headers, "x-ratelimit-limit");
        if (side === "api" && limit) res.headers["x-ratelimit-remaining"] = String(Number(limit) - 1);
      },
    }),
  },
  {
    name: "xml-token-order",
    rule: "D-OAUTH-TOKEN-FORMATS",
    class: "fail-not-note",
    only: "OAUTH-TOKEN-003",
    fails: ["OAUTH-TOKEN-003"],
    // The XML token response with access_token first: the seed lists token_type, scope, access_token
    // without requiring an order, the contract requires that order (a fair variant declares it off).
    fault: () => ({
      response(side, req, res) {
        if (side !== "auth" || pathOf(req) !== "/login/oauth/access_token" || !(header(res.headers, "content-type") ?? "").includes("xml")) return;
        const text = res.body.toString("utf8");
        const token = /<access_token>[^<]*<\/access_token>/.exec(text)?.[0];
        if (token) res.body = Buffer.from(text.replace(token, "").replace(/<OAuth>/, `<OAuth>${token}`));
      },
    }),
  },
  {
    name: "feed-oldest-first",
    rule: "D-FEED-ORDER",
    class: "order",
    only: "FEEDS-ORDER-001",
    fails: ["FEEDS-ORDER-001"],
    fault: listsRewritten(FEED, (events) => [...events].reverse()),
  },
  {
    name: "feed-tie-break-reversed",
    rule: "D-FEED-ORDER",
    class: "order",
    only: "FEEDS-ORDER-002",
    fails: ["FEEDS-ORDER-002"],
    // Newest first by second, but events of one second lower id first.
    fault: listsRewritten(FEED, (events) => [...events].sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)) || Number(BigInt(String(a.id)) - BigInt(String(b.id))))),
  },
  {
    name: "issue-events-newest-first",
    rule: "D-ISSUE-EVENTS-ORDER",
    class: "order",
    only: "ISSUE-EVENTS-ORDER-001",
    fails: ["ISSUE-EVENTS-ORDER-001"],
    fault: listsRewritten(ISSUE_EVENTS, (events) => [...events].reverse()),
  },
  {
    name: "event-org-missing",
    rule: "D-ACTIVITY-ORG",
    class: "conditional-presence",
    only: "FEEDS-ORG-001",
    fails: ["FEEDS-ORG-001"],
    fault: listsRewritten(FEED, (events) => events.map(({ org: _org, ...rest }) => rest)),
  },
  {
    name: "webhook-organization-missing",
    rule: "D-SCHEMA-WEBHOOK-REPOSITORY-SENDER",
    class: "conditional-presence",
    only: "WEBHOOK-ORG-001",
    fails: ["WEBHOOK-ORG-001"],
    // Deliveries without `organization`, also for an organization's repository.
    fault: () => ({
      delivery(d) {
        if (!(header(d.headers, "content-type") ?? "").includes("json")) return;
        const { organization: _organization, ...rest } = JSON.parse(d.body.toString("utf8")) as Record<string, unknown>;
        d.body = Buffer.from(JSON.stringify(rest));
      },
    }),
  },
  {
    name: "missing-scope-404",
    rule: "D-MISSING-SCOPE",
    class: "path-never-taken",
    only: "CONTRACT-SCOPE-*",
    fails: ["CONTRACT-SCOPE-001", "CONTRACT-SCOPE-002", "CONTRACT-SCOPE-003", "CONTRACT-SCOPE-004", "CONTRACT-SCOPE-005"],
    // A missing scope answered as if the resource did not exist.
    fault: () => ({
      response(side, _req, res) {
        if (side !== "api" || res.status !== 403 || !res.body.toString("utf8").includes("scope")) return;
        res.status = 404;
        res.body = Buffer.from(JSON.stringify({ message: "Not Found", documentation_url: "https://docs.example/rest" }));
      },
    }),
  },
  {
    name: "new-delivery-id-per-attempt",
    rule: "D-DELIVERY-RETRIES",
    class: "path-never-taken",
    only: "WEBHOOK-RETRY-*",
    fails: ["WEBHOOK-RETRY-001", "WEBHOOK-RETRY-002"],
    fault: () => ({
      delivery(d) {
        d.headers["x-service-delivery"] = randomUUID();
      },
    }),
  },
  // --- Issue 22: the non-web flow, the application endpoints, the review page, service hooks ---
  {
    name: "two-factor-code-reused",
    rule: "D-NONWEB-TWO-FACTOR",
    class: "behaviour",
    only: "OAUTH-NONWEB-002",
    fails: ["OAUTH-NONWEB-002"],
    // A second use of a two-factor code accepted: the proxy answers it as the first use was answered.
    fault: () => {
      const accepted = new Map<string, Answer>();
      const key = (req: Exchange) => `${header(req.headers, "authorization")} ${header(req.headers, "x-service-otp")}`;
      const isCreate = (side: string, req: Exchange) => side === "api" && req.method === "POST" && pathOf(req) === "/authorizations" && header(req.headers, "x-service-otp") !== undefined;
      return {
        request(side, req) {
          const earlier = isCreate(side, req) ? accepted.get(key(req)) : undefined;
          if (earlier) return { status: earlier.status, headers: { ...earlier.headers }, body: Buffer.from(earlier.body) };
        },
        response(side, req, res) {
          if (isCreate(side, req) && res.status === 201) accepted.set(key(req), { status: res.status, headers: { ...res.headers }, body: Buffer.from(res.body) });
        },
      };
    },
  },
  {
    name: "token-shown-again",
    rule: "D-SCHEMA-AUTHORIZATION-TOKEN",
    class: "value",
    only: "OAUTH-NONWEB-003",
    fails: ["OAUTH-NONWEB-003"],
    // The second get-or-create answers the existing authorization with its token again.
    fault: () => {
      const tokens = new Map<number, string>();
      return {
        response(side, req, res) {
          if (side !== "api" || req.method !== "PUT" || !/^\/authorizations\/clients\//.test(pathOf(req))) return;
          if (!(header(res.headers, "content-type") ?? "").includes("json")) return;
          const body = JSON.parse(res.body.toString("utf8")) as { id?: number; token?: string };
          if (typeof body.id !== "number") return;
          if (res.status === 201 && body.token) tokens.set(body.id, body.token);
          else if (res.status === 200 && body.token === "" && tokens.has(body.id)) res.body = Buffer.from(JSON.stringify({ ...body, token: tokens.get(body.id) }));
        },
      };
    },
  },
  {
    name: "service-hook-duplicated",
    rule: "S-SERVICE-HOOKS",
    class: "behaviour",
    only: "HOOKS-SERVICE-001",
    fails: ["HOOKS-SERVICE-001"],
    // Creating a service again adds a second hook of that service instead of updating the one there.
    fault: (profile) => {
      const copies = new Map<number, number>();
      const hooksPath = `/repos/${profile.serviceHook?.repo}/hooks`;
      return {
        response(side, req, res) {
          if (side !== "api" || pathOf(req) !== hooksPath || !(header(res.headers, "content-type") ?? "").includes("json")) return;
          const body = JSON.parse(res.body.toString("utf8")) as Record<string, unknown> | Record<string, unknown>[];
          if (req.method === "POST" && res.status === 200 && !Array.isArray(body) && typeof body.id === "number") {
            const copy = 900_000_000 + body.id;
            copies.set(body.id, copy);
            const url = String(body.url).replace(/\/\d+$/, `/${copy}`);
            res.status = 201;
            res.headers.location = url;
            res.body = Buffer.from(JSON.stringify({ ...body, id: copy, url }));
          } else if (req.method === "GET" && Array.isArray(body)) {
            const extra = body.filter((h) => copies.has(h.id as number)).map((h) => ({ ...h, id: copies.get(h.id as number) }));
            if (extra.length > 0) res.body = Buffer.from(JSON.stringify([...body, ...extra]));
          }
        },
      };
    },
  },
  {
    name: "service-hook-on-organization",
    rule: "S-SERVICE-HOOKS",
    class: "path-never-taken",
    only: "HOOKS-SERVICE-002",
    fails: ["HOOKS-SERVICE-002"],
    // A service hook accepted on an organization: answered 201 with the hook it would have made.
    fault: (profile) => ({
      request(side, req) {
        if (side !== "api" || req.method !== "POST" || pathOf(req) !== `/orgs/${profile.org}/hooks`) return;
        const body = JSON.parse(req.body.toString("utf8")) as { name?: string; config?: Record<string, string>; events?: string[] };
        if (body.name === "web") return;
        const id = 800_000_000 + Math.floor(Math.random() * 1000);
        const now = new Date().toISOString();
        const url = `${header(req.headers, "x-forwarded-proto") ?? "http"}://${header(req.headers, "host") ?? "127.0.0.1"}/orgs/${profile.org}/hooks/${id}`;
        const hook = { id, url, ping_url: `${url}/pings`, deliveries_url: `${url}/deliveries`, name: body.name, events: body.events ?? ["push"], active: true, config: body.config ?? {}, created_at: now, updated_at: now, last_response: { code: null, status: "unused", message: null } };
        return { status: 201, headers: { "content-type": "application/json; charset=utf-8", location: url }, body: Buffer.from(JSON.stringify(hook)) };
      },
    }),
  },
  {
    name: "review-page-other-users-grant",
    rule: "D-OAUTH-REVIEW-PAGE",
    class: "behaviour",
    only: "OAUTH-REVIEW-001",
    fails: ["OAUTH-REVIEW-001"],
    // The review page shows the application's grant to a signed-in user who has none (another user's).
    fault: (profile) => ({
      response(side, req, res) {
        if (side !== "auth" || req.method !== "GET" || !pathOf(req).startsWith("/settings/connections/applications/") || res.status !== 404) return;
        res.status = 200;
        res.headers["content-type"] = "text/html; charset=utf-8";
        res.body = Buffer.from(`<!doctype html><title>Review</title><h1>${profile.app?.clientId} has access to ${profile.users[0]?.login}'s account</h1><form method="post"><button>Revoke</button></form>`);
      },
    }),
  },
  {
    name: "malformed-escape-404",
    rule: "D-REQ-MALFORMED-ESCAPE",
    class: "value",
    only: "CONTRACT-ESCAPE-001",
    fails: ["CONTRACT-ESCAPE-001"],
    // An undecodable path answered as if it named nothing.
    fault: () => ({
      response(side, req, res) {
        if (side === "api" && res.status === 400 && /%(?![0-9A-Fa-f]{2})|%[0-9A-Fa-f](?![0-9A-Fa-f])/.test(pathOf(req))) res.status = 404;
      },
    }),
  },
  {
    name: "unreadable-token-request-400",
    rule: "D-OAUTH-TOKEN-UNREADABLE",
    class: "value",
    only: "OAUTH-UNREADABLE-001",
    fails: ["OAUTH-UNREADABLE-001"],
    // A token request whose body is not JSON answered 400 instead of 200 with an OAuth error.
    fault: () => ({
      request(side, req) {
        if (side !== "auth" || pathOf(req) !== "/login/oauth/access_token" || !(header(req.headers, "content-type") ?? "").includes("json")) return;
        try {
          JSON.parse(req.body.toString("utf8"));
        } catch {
          return { status: 400, headers: { "content-type": "application/json" }, body: Buffer.from(JSON.stringify({ message: "Problems parsing JSON", documentation_url: "https://docs.example/rest" })) };
        }
      },
    }),
  },
  // Issue 23's hardening rules, caught by the cases written for them (conformance/cases/oauth/hardening.ts).
  {
    name: "token-answer-cacheable",
    rule: "D-REF-NONWEB-NO-STORE",
    class: "conditional-presence",
    only: "OAUTH-NOSTORE-001",
    fails: ["OAUTH-NOSTORE-001"],
    // The answer that creates a token loses Cache-Control: no-store.
    fault: () => ({
      response(side, req, res) {
        if (side === "api" && req.method === "POST" && pathOf(req) === "/authorizations") delete res.headers["cache-control"];
      },
    }),
  },
  {
    name: "review-page-echoes-token",
    rule: "D-REF-OAUTH-PAGE-ECHO",
    class: "behaviour",
    only: "OAUTH-ECHO-001",
    fails: ["OAUTH-ECHO-001"],
    // The review page writes the access_token of its URL into the HTML.
    fault: () => ({
      response(side, req, res) {
        if (side !== "auth" || !pathOf(req).startsWith("/settings/connections/applications/")) return;
        const token = new URL(req.url, "http://x").searchParams.get("access_token");
        if (token) res.body = Buffer.concat([res.body, Buffer.from(`<p>token ${token}</p>`)]);
      },
    }),
  },
  {
    name: "narrowed-token-served-from-cache",
    rule: "D-FEED-CACHE-SCOPES",
    class: "path-never-taken",
    only: "OAUTH-NARROWED-001",
    fails: ["OAUTH-NARROWED-001"],
    // The feed answers a token as it answered it first, whatever its scopes are now.
    fault: () => {
      const first = new Map<string, Answer>();
      return {
        request(side, req) {
          if (side !== "api" || req.method !== "GET" || !FEED.test(pathOf(req))) return;
          const earlier = first.get(`${header(req.headers, "authorization")} ${req.url}`);
          if (earlier && header(req.headers, "if-none-match") === undefined) return { status: earlier.status, headers: { ...earlier.headers }, body: Buffer.from(earlier.body) };
        },
        response(side, req, res) {
          const key = `${header(req.headers, "authorization")} ${req.url}`;
          if (side === "api" && req.method === "GET" && FEED.test(pathOf(req)) && res.status === 200 && !first.has(key)) first.set(key, { status: res.status, headers: { ...res.headers }, body: Buffer.from(res.body) });
        },
      };
    },
  },
  {
    name: "revocation-keeps-codes",
    rule: "D-REF-REVOKE-ENDS-CODES",
    class: "path-never-taken",
    only: "OAUTH-REVOKECODES-001",
    fails: ["OAUTH-REVOKECODES-001"],
    // The application's revocation of a token is answered 204 without reaching the server.
    fault: () => ({
      request(side, req) {
        if (side === "api" && req.method === "DELETE" && /^\/applications\/[^/]+\/tokens\//.test(pathOf(req))) return { status: 204, headers: {}, body: Buffer.alloc(0) };
      },
    }),
  },
  {
    name: "feed-minimal-pull-request",
    rule: "D-SCHEMA-ACTIVITY-FEED-OBJECTS",
    class: "value",
    only: "FEEDS-PAYLOAD-003",
    fails: ["FEEDS-PAYLOAD-003"],
    // A feed's pull request cut to the real service's minimal form: the response schema takes it
    // (D-RECEIVED-RESPONSES), so only the case's own check sees it.
    fault: listsRewritten(FEED, (events) =>
      events.map((e) => {
        if (e.type !== "PullRequestEvent") return e;
        const payload = e.payload as { pull_request: Record<string, unknown> };
        const { id, number, url, head, base } = payload.pull_request;
        return { ...e, payload: { ...payload, pull_request: { id, number, url, head, base } } };
      }),
    ),
  },
  {
    name: "hook-without-deliveries-url",
    rule: "D-SCHEMA-HOOK-RESPONSE",
    class: "conditional-presence",
    only: "HOOKS-ORG-001",
    fails: ["HOOKS-ORG-001"],
    // The created organization hook answered without deliveries_url (the response schema takes it).
    fault: () => ({
      response(side, req, res) {
        if (side !== "api" || req.method !== "POST" || !/^\/orgs\/[^/]+\/hooks$/.test(pathOf(req)) || res.status !== 201) return;
        const { deliveries_url: _deliveries, ...rest } = JSON.parse(res.body.toString("utf8")) as Record<string, unknown>;
        res.body = Buffer.from(JSON.stringify(rest));
      },
    }),
  },
  {
    name: "delivery-status-not-ok-on-2xx",
    rule: "D-SCHEMA-DELIVERY-RECORD",
    class: "value",
    only: "HOOKS-DELIVERY-001",
    fails: ["HOOKS-DELIVERY-001"],
    // A delivery's detail whose status is not `OK` though the receiver answered 2xx (the response schema takes it).
    fault: () => ({
      response(side, req, res) {
        if (side !== "api" || req.method !== "GET" || !/\/hooks\/\d+\/deliveries\/\d+$/.test(pathOf(req)) || !isJson(res)) return;
        const detail = JSON.parse(res.body.toString("utf8")) as { status_code?: number; status?: string };
        if ((detail.status_code ?? 0) >= 200 && (detail.status_code ?? 0) < 300) res.body = Buffer.from(JSON.stringify({ ...detail, status: "delivered" }));
      },
    }),
  },
  // --- Issue 33: four defects no case caught; issues 34 and 36: the reference's two changes ---
  ...ISSUE_33_VARIANTS,
  ...ISSUE_40_VARIANTS,
];
