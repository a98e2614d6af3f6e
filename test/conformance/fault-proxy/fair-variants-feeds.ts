/**
 * Fair variants of the feeds, issue events, hooks and webhooks areas (issue 21): the correct
 * reference made, on the wire by the fault proxy (proxy.ts), into a server that chose otherwise
 * where the seed lets it — `Link` with only next and last, delivery IDs that are not UUIDs, a
 * `charset` on the delivery Content-Type, weak ETags, opaque event ids, other statuses from the
 * hook API, a SHA-256-only signature, another foreign-dashboard refusal, another tie order.
 * Each carries the profile `decisions` such a target declares. With them, no selected case may
 * fail (a seed rule is never stricter than the seed); a variant that departs from a decision
 * says in `without` which cases must fail without the declaration, each counted against the
 * decision it departs from — so the suite still holds every other target to the contract's choices.
 */
import { createHash } from "node:crypto";
import type { DecisionSetting } from "../../../conformance/core/decisions.ts";
import { header, type Answer, type Exchange, type Fault } from "./proxy.ts";

export interface FairVariant {
  name: string;
  /** What the target chose, in the seed's words where it has some. */
  choice: string;
  /** The profile's declaration for this target (none: the reference profile as it is). */
  decisions: Record<string, DecisionSetting>;
  /** The cases to run (`--only` patterns). */
  only: string;
  /**
   * What must fail when the profile does not declare the choice: the cases to run, and each case
   * that must fail with the decision its failure counts against.
   */
  without?: { only: string; fails: Record<string, string> };
  /**
   * Cases that must run and pass with the declaration, not be skipped: a switch takes only the
   * assertions it owns, never a case whose other checks still apply.
   */
  passes?: string[];
  fault(): Fault;
}

const FEED = /^\/(events|repos\/[^/]+\/[^/]+\/events|networks\/[^/]+\/[^/]+\/events|orgs\/[^/]+\/events|users\/[^/]+\/(received_events(\/public)?|events(\/public|\/orgs\/[^/]+)?))$/;
const DASHBOARD = /^\/users\/[^/]+\/events\/orgs\/[^/]+$/;
const HOOKS = /^\/(repos\/[^/]+\/[^/]+|orgs\/[^/]+)\/hooks$/;
const HOOK = /^\/(repos\/[^/]+\/[^/]+|orgs\/[^/]+)\/hooks\/\d+$/;
const PINGS = /^\/(repos\/[^/]+\/[^/]+|orgs\/[^/]+)\/hooks\/\d+\/pings$/;
const DELIVERY_LOG = /^\/(repos\/[^/]+\/[^/]+|orgs\/[^/]+)\/hooks\/\d+\/deliveries(\/\d+)?$/;

function pathOf(ex: Exchange): string {
  return ex.url.split("?")[0]!;
}

function digest(text: string, length: number): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

/** A JSON body rewritten by `change` (left alone when it is not JSON). */
function rewriteJson(res: Answer, change: (body: unknown) => unknown): void {
  if (!(header(res.headers, "content-type") ?? "").includes("json") || res.body.length === 0) return;
  res.body = Buffer.from(JSON.stringify(change(JSON.parse(res.body.toString("utf8")))));
}

/** `Link` without the rels the seed does not name (first, prev). */
function nextAndLastOnly(link: string): string {
  return link
    .split(/,\s*(?=<)/)
    .filter((part) => !/rel="?(first|prev)"?/.test(part))
    .join(", ");
}

/** The delivery ID a target using its own scheme would send for the reference's UUID: stable, unique, not a UUID. */
export function ownDeliveryId(uuid: string): string {
  return `delivery.${digest(uuid, 24)}`;
}

/** An opaque event id: stable per event, unrelated to the reference's numeric order. */
export function opaqueEventId(id: string): string {
  return `evt_${digest(id, 16)}`;
}

export const FAIR_VARIANTS: FairVariant[] = [
  {
    name: "link-next-and-last-only",
    choice: 'Link names rel="next" and rel="last" only (the seed\'s), never first or prev',
    decisions: { "D-LINK-FIRST-PREV": "off" },
    only: "FEEDS-LINK-*,FEEDS-PAGE-001,ISSUE-EVENTS-PAGE-001",
    without: { only: "FEEDS-LINK-002", fails: { "FEEDS-LINK-002": "D-LINK-FIRST-PREV" } },
    fault: () => ({
      response(side, _req, res) {
        const link = header(res.headers, "link");
        if (side === "api" && link) res.headers.link = nextAndLastOnly(link);
      },
    }),
  },
  {
    name: "delivery-id-not-a-uuid",
    choice: "X-Service-Delivery is delivery.<hex> (unique, the same on a retry and a redelivery), also as the delivery log's guid",
    decisions: {},
    only: "WEBHOOK-HEADERS-001,WEBHOOK-PING-002,WEBHOOK-RETRY-*",
    fault: () => ({
      delivery(d) {
        const id = header(d.headers, "x-service-delivery");
        if (id) d.headers["x-service-delivery"] = ownDeliveryId(id);
      },
      response(side, req, res) {
        if (side !== "api" || !DELIVERY_LOG.test(pathOf(req))) return;
        const rename = (entry: unknown): unknown => {
          if (entry === null || typeof entry !== "object") return entry;
          const e = entry as { guid?: unknown; request?: { headers?: Record<string, unknown> } };
          if (typeof e.guid === "string") e.guid = ownDeliveryId(e.guid);
          const sent = e.request?.headers?.["X-Service-Delivery"];
          if (typeof sent === "string") e.request!.headers!["X-Service-Delivery"] = ownDeliveryId(sent);
          return e;
        };
        rewriteJson(res, (body) => (Array.isArray(body) ? body.map(rename) : rename(body)));
      },
    }),
  },
  {
    name: "delivery-content-type-with-charset",
    choice: "deliveries say Content-Type: application/json; charset=utf-8 (and the form type with a charset too)",
    decisions: {},
    only: "WEBHOOK-HEADERS-001,WEBHOOK-CONTENT-*,WEBHOOK-SIGNATURE-003,WEBHOOK-PAYLOAD-001",
    fault: () => ({
      delivery(d) {
        const type = header(d.headers, "content-type");
        if (type === "application/json" || type === "application/x-www-form-urlencoded") d.headers["content-type"] = `${type}; charset=utf-8`;
      },
    }),
  },
  {
    name: "weak-etags",
    choice: 'feeds send weak ETags (W/"…"); If-None-Match with one still gets 304',
    decisions: { "D-ETAG": "off" },
    only: "FEEDS-ETAG-*,FEEDS-POLL-001",
    without: { only: "FEEDS-ETAG-001", fails: { "FEEDS-ETAG-001": "D-ETAG" } },
    fault: () => ({
      response(side, req, res) {
        const etag = header(res.headers, "etag");
        if (side === "api" && FEED.test(pathOf(req)) && etag && !etag.startsWith("W/")) res.headers.etag = `W/${etag}`;
      },
    }),
  },
  {
    name: "opaque-event-ids",
    choice: "activity event ids are opaque strings (evt_<hex>), in no numeric order",
    decisions: { "D-ACTIVITY-ID": "opaque" },
    only: "FEEDS-ORDER-*,FEEDS-PAGE-001,FEEDS-LINK-001,FEEDS-ETAG-005,FEEDS-WINDOW-001",
    // The contract's pattern for ids is checked on every feed response and counted against
    // D-ACTIVITY-ID, whose case is FEEDS-WINDOW-001.
    without: { only: "FEEDS-WINDOW-001,FEEDS-ORDER-001", fails: { "FEEDS-WINDOW-001": "D-ACTIVITY-ID" } },
    fault: () => ({
      response(side, req, res) {
        if (side !== "api" || !FEED.test(pathOf(req)) || res.status !== 200) return;
        rewriteJson(res, (body) => (Array.isArray(body) ? body.map((e: { id?: unknown }) => ({ ...e, id: opaqueEventId(String(e.id)) })) : body));
      },
    }),
  },
  {
    name: "hook-statuses-200-202",
    choice: "creating a hook answers 200 without Location, deleting it 200, an edit 202 Accepted, a ping 202 — the paths and bodies the contract's",
    // Statuses only: D-HOOK-ENDPOINTS stays on, so the hook bodies, the edit's keys and `active` are still checked.
    decisions: { "D-HOOK-STATUSES": "off", "D-PING-ENDPOINT": "off" },
    // A service hook's first install answers 200 too: one departure, D-HOOK-STATUSES (issue 40).
    only: "HOOKS-CREATE-001,HOOKS-CREATE-002,HOOKS-CREATE-004,HOOKS-READ-001,HOOKS-EDIT-*,HOOKS-DELETE-001,HOOKS-ORG-002,HOOKS-SERVICE-001,WEBHOOK-ACTIVE-001,WEBHOOK-SIGNATURE-004,WEBHOOK-PING-*,WEBHOOK-HEADERS-001",
    passes: ["HOOKS-CREATE-001", "HOOKS-READ-001", "HOOKS-EDIT-001", "HOOKS-EDIT-002", "HOOKS-DELETE-001", "HOOKS-ORG-002", "HOOKS-SERVICE-001", "WEBHOOK-ACTIVE-001", "WEBHOOK-SIGNATURE-004"],
    without: {
      only: "HOOKS-CREATE-001,HOOKS-DELETE-001,HOOKS-SERVICE-001,WEBHOOK-ACTIVE-001,WEBHOOK-PING-002",
      fails: { "HOOKS-CREATE-001": "D-HOOK-STATUSES", "HOOKS-DELETE-001": "D-HOOK-STATUSES", "HOOKS-SERVICE-001": "D-HOOK-STATUSES", "WEBHOOK-ACTIVE-001": "D-HOOK-STATUSES", "WEBHOOK-PING-002": "D-PING-ENDPOINT" },
    },
    fault: () => ({
      response(side, req, res) {
        if (side !== "api") return;
        const path = pathOf(req);
        if (req.method === "POST" && HOOKS.test(path) && res.status === 201) {
          res.status = 200;
          delete res.headers.location;
        }
        if (req.method === "DELETE" && HOOK.test(path) && res.status === 204) res.status = 200;
        if (req.method === "PATCH" && HOOK.test(path) && res.status === 200) res.status = 202;
        if (req.method === "POST" && PINGS.test(path) && res.status === 204) res.status = 202;
      },
    }),
  },
  {
    name: "signature-sha256-only",
    choice: "X-Hub-Signature: sha256=<hex HMAC-SHA256>, no X-Hub-Signature-256 (declared D-SIGNATURE: sha256)",
    decisions: { "D-SIGNATURE": "sha256" },
    // HOOKS-DELIVERY-001 too: the delivery log records the one header such a server sends.
    only: "WEBHOOK-SIGNATURE-*,HOOKS-ORG-001,HOOKS-DELIVERY-001",
    without: { only: "WEBHOOK-SIGNATURE-001", fails: { "WEBHOOK-SIGNATURE-001": "D-SIGNATURE" } },
    fault: () => ({
      delivery(d) {
        const sha256 = header(d.headers, "x-hub-signature-256");
        if (sha256 === undefined) return;
        d.headers["x-hub-signature"] = sha256;
        delete d.headers["x-hub-signature-256"];
      },
      response(side, req, res) {
        if (side !== "api" || !/\/hooks\/\d+\/deliveries\/\d+$/.test(pathOf(req)) || res.status !== 200) return;
        rewriteJson(res, (body) => {
          const headers = (body as { request?: { headers?: Record<string, string> } }).request?.headers;
          if (headers?.["X-Hub-Signature-256"] === undefined) return body;
          headers["X-Hub-Signature"] = headers["X-Hub-Signature-256"];
          delete headers["X-Hub-Signature-256"];
          return body;
        });
      },
    }),
  },
  {
    name: "dashboard-403-for-another-user",
    choice: "another user's organization dashboard is refused with 403, not 404",
    decisions: { "D-FEED-VISIBILITY": "off" },
    only: "FEEDS-VIS-005",
    without: { only: "FEEDS-VIS-005", fails: { "FEEDS-VIS-005": "D-FEED-VISIBILITY" } },
    fault: () => ({
      response(side, req, res) {
        if (side === "api" && DASHBOARD.test(pathOf(req)) && res.status === 404) res.status = 403;
      },
    }),
  },
  {
    name: "feed-ties-lower-id-first",
    choice: "events of one second come lower id first (the seed states no order)",
    decisions: { "D-FEED-ORDER": "off" },
    only: "FEEDS-ORDER-*",
    without: { only: "FEEDS-ORDER-*", fails: { "FEEDS-ORDER-001": "D-FEED-ORDER", "FEEDS-ORDER-002": "D-FEED-ORDER" } },
    fault: () => ({
      response(side, req, res) {
        if (side !== "api" || !FEED.test(pathOf(req)) || res.status !== 200) return;
        rewriteJson(res, (body) =>
          Array.isArray(body)
            ? [...(body as { id: string; created_at: string }[])].sort((a, b) => b.created_at.localeCompare(a.created_at) || Number(BigInt(a.id) - BigInt(b.id)))
            : body,
        );
      },
    }),
  },
];
