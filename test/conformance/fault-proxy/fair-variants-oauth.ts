/**
 * Fair variants of the OAuth and contract areas (issue 21): the reference made different on the
 * wire, by the fault proxy (proxy.ts), in a way the seed allows — a choice the contract made
 * otherwise where the seed says "not shown" or leaves the detail open. Each names the decision it
 * chooses otherwise and how a profile declares that (`off`, or a declared value), the cases to
 * run, and the cases that must fail when the profile does NOT declare it — which proves the
 * declaration is what lets the variant pass, not a suite that checks nothing.
 * test/conformance/fair-variants-oauth.test.ts runs them.
 */
import type { DecisionSetting } from "../../../conformance/core/decisions.ts";
import { header, type Answer, type Exchange, type Fault } from "./proxy.ts";

export interface FairVariant {
  name: string;
  /** The D- rule of spec/DECISIONS.md the variant chooses otherwise. */
  decision: string;
  /** What the variant's profile says of it. */
  setting: DecisionSetting;
  /** The cases to run, as `--only` takes them. */
  only: string;
  /** Cases that must fail when the profile leaves the decision as the contract has it. */
  failsUndeclared: string[];
  /** Cases that must pass even undeclared: one departure fails its own rule's case, not every case that read it. */
  passUndeclared?: string[];
  fault(): Fault;
}

const TOKEN_PATH = "/login/oauth/access_token";

function pathOf(ex: Exchange): string {
  return ex.url.split("?")[0]!;
}

function mediaType(res: Answer): string {
  return (header(res.headers, "content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Whether a token-endpoint answer is an error, in whichever format it came. */
function isTokenError(res: Answer): boolean {
  const text = res.body.toString("utf8");
  const type = mediaType(res);
  if (type === "application/json") {
    try {
      return typeof (JSON.parse(text) as { error?: unknown }).error === "string";
    } catch {
      return false;
    }
  }
  if (type.includes("xml")) return /<error>/.test(text);
  return new URLSearchParams(text).has("error");
}

/** A JSON error body of the API host with its message reworded (the shape is kept). */
const WORDING: Record<number, string> = {
  400: "The request body could not be read",
  401: "The credentials were not accepted",
  403: "This request is not allowed",
  404: "No such resource here",
  413: "The request body is too big",
  414: "The request path is too long",
  415: "This media type is not taken here",
  422: "Some input was refused",
};

export const FAIR_VARIANTS: FairVariant[] = [
  {
    name: "token-errors-400",
    decision: "D-OAUTH-TOKEN-ERROR-STATUS",
    setting: 400,
    only: "OAUTH-TOKEN-004,OAUTH-TOKEN-006,OAUTH-TOKEN-008,OAUTH-PKCE-002,CONTRACT-REQ-007,ROBUST-CREATE_ACCESS_TOKEN-001,OAUTH-UNREADABLE-002,OAUTH-CLIENTAUTH-001",
    failsUndeclared: ["OAUTH-TOKEN-004", "OAUTH-TOKEN-006", "OAUTH-TOKEN-008", "CONTRACT-REQ-007", "OAUTH-UNREADABLE-002", "OAUTH-CLIENTAUTH-001"],
    // RFC 6749 §5.2: token errors with status 400, the body as the seed has it in every format.
    fault: () => ({
      response(side, req, res) {
        if (side === "auth" && pathOf(req) === TOKEN_PATH && res.status === 200 && isTokenError(res)) res.status = 400;
      },
    }),
  },
  {
    name: "rate-limits-1000-and-100",
    decision: "D-RATE-RESET",
    setting: { authenticated: 1000, anonymous: 100 },
    only: "CONTRACT-RATE-*",
    failsUndeclared: ["CONTRACT-RATE-001"],
    // Other hourly limits, the remaining count moved with them (so it still counts).
    fault: () => ({
      response(side, _req, res) {
        const limit = header(res.headers, "x-ratelimit-limit");
        const remaining = Number(header(res.headers, "x-ratelimit-remaining"));
        if (side !== "api" || limit === undefined || !Number.isInteger(remaining)) return;
        const to = limit === "5000" ? 1000 : limit === "60" ? 100 : undefined;
        if (to === undefined) return;
        res.headers["x-ratelimit-limit"] = String(to);
        res.headers["x-ratelimit-remaining"] = String(Math.max(0, remaining + to - Number(limit)));
      },
    }),
  },
  {
    name: "no-rate-limit-reset",
    decision: "D-RATE-RESET",
    setting: "off",
    only: "CONTRACT-RATE-*,OAUTH-TRANSPORT-*",
    failsUndeclared: ["CONTRACT-RATE-001", "CONTRACT-RATE-002"],
    passUndeclared: ["OAUTH-TRANSPORT-001", "OAUTH-TRANSPORT-002"],
    // The seed shows no reset information: a target may send none.
    fault: () => ({
      response(side, _req, res) {
        if (side === "api") delete res.headers["x-ratelimit-reset"];
      },
    }),
  },
  {
    name: "other-error-texts",
    decision: "D-ERRORS",
    setting: "off",
    only: "OAUTH-TRANSPORT-*,CONTRACT-REQ-001,CONTRACT-REQ-002,CONTRACT-AUTH-001,ROBUST-LIST_REPO_EVENTS-001",
    failsUndeclared: ["OAUTH-TRANSPORT-001", "OAUTH-TRANSPORT-002", "CONTRACT-REQ-002", "CONTRACT-AUTH-001"],
    // Error answers of the API in the same shape, worded otherwise (the seed shows none).
    fault: () => ({
      response(side, _req, res) {
        if (side !== "api" || res.status < 400 || mediaType(res) !== "application/json") return;
        try {
          const body = JSON.parse(res.body.toString("utf8")) as { message?: unknown };
          if (typeof body.message !== "string") return;
          body.message = WORDING[res.status] ?? "The request could not be served";
          res.body = Buffer.from(JSON.stringify(body));
        } catch {
          // not JSON after all: left as it is
        }
      },
    }),
  },
  {
    name: "xml-children-reordered",
    decision: "D-OAUTH-TOKEN-FORMATS",
    setting: "off",
    only: "OAUTH-TOKEN-003,OAUTH-TOKEN-008",
    failsUndeclared: ["OAUTH-TOKEN-003"],
    // The seed names the children of OAuth (token_type, scope, access_token), not their order.
    fault: () => ({
      response(side, req, res) {
        if (side !== "auth" || pathOf(req) !== TOKEN_PATH || !mediaType(res).includes("xml")) return;
        const text = res.body.toString("utf8");
        const token = /<access_token>[^<]*<\/access_token>/.exec(text)?.[0];
        if (token) res.body = Buffer.from(text.replace(token, "").replace(/<OAuth>/, `<OAuth>${token}`));
      },
    }),
  },
  {
    name: "scope-headers-without-spaces",
    decision: "D-SCOPE-HEADERS",
    setting: "off",
    only: "OAUTH-SCOPE-004,OAUTH-SCOPE-001,OAUTH-TRANSPORT-001,CONTRACT-SCOPE-003,CONTRACT-SCOPE-005",
    failsUndeclared: ["OAUTH-SCOPE-004"],
    // "comma-separated lists", joined with "," rather than the contract's ", ".
    fault: () => ({
      response(side, _req, res) {
        if (side !== "api") return;
        for (const name of ["x-oauth-scopes", "x-accepted-oauth-scopes"]) {
          const value = header(res.headers, name);
          if (value !== undefined) res.headers[name] = value.replaceAll(", ", ",");
        }
      },
    }),
  },
  {
    name: "unknown-client-400",
    decision: "D-OAUTH-AUTHORIZE-UNKNOWN-CLIENT",
    setting: "off",
    only: "OAUTH-ERROR-002,ROBUST-AUTHORIZE-001",
    failsUndeclared: ["OAUTH-ERROR-002"],
    // An authorize request the web host refuses gets a 400 page instead of the contract's 404 (the
    // seed says nothing of an unknown client_id; it still is never redirected anywhere).
    fault: () => ({
      response(side, req, res) {
        if (side === "auth" && pathOf(req) === "/login/oauth/authorize" && res.status === 404) res.status = 400;
      },
    }),
  },
  {
    name: "missing-scope-404",
    decision: "D-MISSING-SCOPE",
    setting: "off",
    only: "CONTRACT-SCOPE-003,CONTRACT-SCOPE-005",
    failsUndeclared: ["CONTRACT-SCOPE-003", "CONTRACT-SCOPE-005"],
    // A missing scope answered like a resource the caller cannot see: the seed says the token is
    // refused, not how (broken-variants.test.ts has the same fault caught under the contract).
    fault: () => ({
      response(side, _req, res) {
        if (side !== "api" || res.status !== 403 || !res.body.toString("utf8").includes("scope")) return;
        res.status = 404;
        res.body = Buffer.from(JSON.stringify({ message: "Not Found", documentation_url: "https://docs.example/rest" }));
      },
    }),
  },
];
