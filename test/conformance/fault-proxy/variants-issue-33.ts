/**
 * Broken variants for the cases of issue 33 (four defects no case caught) and of the reference's
 * changes of issues 34 and 36: each the reference made wrong on the wire by the fault proxy, as in
 * variants.ts. The four of issue 33 break a seed rule, and are judged with the decisions around
 * it switched off (`decisions`), so it is the seed check that catches them, not an older case of
 * the contract's choices.
 */
import { SEED_SCOPES } from "../../../conformance/cases/oauth/authorize-scopes.ts";
import type { Profile } from "../../../conformance/core/profile.ts";
import { header, type Answer, type Exchange } from "./proxy.ts";
import type { Variant } from "./variants.ts";

const TOKEN_PATH = "/login/oauth/access_token";
const REVIEW = /^\/settings\/connections\/applications\/[^/]+$/;

function pathOf(ex: Exchange): string {
  return ex.url.split("?")[0]!;
}

function contentType(h: Exchange["headers"]): string {
  return (header(h, "content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** The fields of a token request, form or JSON; undefined when they cannot be read. */
function tokenFields(req: Exchange): Record<string, unknown> | undefined {
  const type = contentType(req.headers);
  const text = req.body.toString("utf8");
  if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function json(status: number, body: unknown): Answer {
  return { status, headers: { "content-type": "application/json; charset=utf-8" }, body: Buffer.from(JSON.stringify(body)) };
}

/** A token answer with `extra` scope names added to its `scope`, in whichever format it came. */
function widenTokenAnswer(res: Answer, extra: string[]): string | undefined {
  const type = (header(res.headers, "content-type") ?? "").split(";")[0]!.trim();
  const text = res.body.toString("utf8");
  if (type === "application/json") {
    const body = JSON.parse(text) as Record<string, string>;
    if (!body.access_token) return undefined;
    res.body = Buffer.from(JSON.stringify({ ...body, scope: [body.scope, ...extra].filter(Boolean).join(",") }));
    return body.access_token;
  }
  if (type === "application/x-www-form-urlencoded") {
    const form = new URLSearchParams(text);
    const token = form.get("access_token");
    if (!token) return undefined;
    form.set("scope", [form.get("scope"), ...extra].filter(Boolean).join(","));
    res.body = Buffer.from(form.toString());
    return token;
  }
  return undefined;
}

export const ISSUE_33_VARIANTS: Variant[] = [
  {
    name: "unknown-scope-granted",
    rule: "S-SCOPE-TABLE",
    class: "value",
    only: "OAUTH-UNKNOWNSCOPE-001,OAUTH-UNKNOWNSCOPE-002",
    fails: ["OAUTH-UNKNOWNSCOPE-002"],
    decisions: { "D-REF-OAUTH-UNKNOWN-SCOPES": "off", "D-OAUTH-SCOPE-INPUT": "off" },
    // Names that are no scope, asked for on the authorize page, end up in the token's scope and in
    // X-OAuth-Scopes: the code of the request carries them, the token answer and the API show them.
    fault: () => {
      let asked: string[] = [];
      const codes = new Map<string, string[]>();
      const tokens = new Map<string, string[]>();
      return {
        request(side, req) {
          if (side !== "auth" || req.method !== "GET" || pathOf(req) !== "/login/oauth/authorize") return;
          const scope = new URL(req.url, "http://proxy").searchParams.get("scope") ?? "";
          asked = scope.split(/[\s,]+/).filter((s) => s !== "" && !SEED_SCOPES.includes(s));
        },
        response(side, req, res) {
          if (side === "auth") {
            const location = header(res.headers, "location");
            const code = location ? new URL(location, "http://proxy").searchParams.get("code") : null;
            if (code && asked.length > 0) codes.set(code, asked);
            if (req.method === "POST" && pathOf(req) === TOKEN_PATH) {
              const code = tokenFields(req)?.code;
              const extra = typeof code === "string" ? codes.get(code) : undefined;
              const token = extra ? widenTokenAnswer(res, extra) : undefined;
              if (token && extra) tokens.set(token, extra);
            }
            return;
          }
          const token = /^token (\S+)$/.exec(header(req.headers, "authorization") ?? "")?.[1];
          const extra = token ? tokens.get(token) : undefined;
          const scopes = header(res.headers, "x-oauth-scopes");
          if (extra && scopes !== undefined) res.headers["x-oauth-scopes"] = [scopes, ...extra].filter(Boolean).join(", ");
        },
      };
    },
  },
  {
    name: "review-page-shown-to-visitors",
    rule: "S-OAUTH-REVIEW-LINK",
    class: "behaviour",
    only: "OAUTH-REVIEW-003",
    fails: ["OAUTH-REVIEW-003"],
    decisions: { "D-OAUTH-REVIEW-PAGE": "off" },
    // A cache in front of the review page that ignores the session cookie: the last signed-in
    // user's page is served to the next visitor who has none.
    fault: () => {
      let last: Answer | undefined;
      return {
        response(side, req, res) {
          if (side !== "auth" || req.method !== "GET" || !REVIEW.test(pathOf(req))) return;
          if (header(req.headers, "cookie") && res.status === 200) last = { status: res.status, headers: { ...res.headers }, body: Buffer.from(res.body) };
          else if (!header(req.headers, "cookie") && last) {
            res.status = last.status;
            res.headers = Object.fromEntries(Object.entries(last.headers).filter(([name]) => name !== "set-cookie"));
            res.body = Buffer.from(last.body);
          }
        },
      };
    },
  },
  {
    name: "token-unreadable-api-errors",
    rule: "S-OAUTH-TOKEN-ERRORS",
    class: "value",
    only: "OAUTH-UNREADABLE-001,OAUTH-UNREADABLE-002",
    fails: ["OAUTH-UNREADABLE-002"],
    decisions: { "D-OAUTH-TOKEN-UNREADABLE": "off", "D-OAUTH-TOKEN-ERROR-STATUS": "off" },
    // What the token endpoint cannot read answered with the API's error bodies: 415 for another
    // media type, 400 for JSON that does not parse, 422 Validation Failed for the wrong shapes.
    fault: () => ({
      request(side, req) {
        if (side !== "auth" || req.method !== "POST" || pathOf(req) !== TOKEN_PATH) return;
        const type = contentType(req.headers);
        const docs = "https://docs.example/rest";
        if (type !== "application/json" && type !== "application/x-www-form-urlencoded") return json(415, { message: "Unsupported Media Type", documentation_url: docs });
        if (type === "application/x-www-form-urlencoded") return;
        let value: unknown;
        try {
          value = JSON.parse(req.body.toString("utf8"));
        } catch {
          return json(400, { message: "Problems parsing JSON", documentation_url: docs });
        }
        const fields = value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
        const wrong = fields ? Object.entries(fields).filter(([, v]) => typeof v !== "string").map(([k]) => k) : ["body"];
        if (wrong.length > 0) return json(422, { message: "Validation Failed", errors: wrong.map((field) => ({ resource: "OauthAccess", field, code: "invalid" })), documentation_url: docs });
      },
    }),
  },
  {
    name: "catalog-omits-accepted-event",
    rule: "S-SERVICE-HOOK-CATALOG",
    class: "value",
    only: "HOOKS-SERVICE-003",
    fails: ["HOOKS-SERVICE-003"],
    decisions: { "D-REF-HOOKS-EVENTS": "off", "D-SERVICE-CATALOG-SHAPE": "off" },
    // GET /hooks leaves the last of the profile's service's supported events out; the service still takes it.
    fault: (profile: Profile) => ({
      response(side, req, res) {
        if (side !== "api" || req.method !== "GET" || pathOf(req) !== "/hooks" || res.status !== 200) return;
        const catalog = JSON.parse(res.body.toString("utf8")) as { name?: string; events?: string[]; supported_events?: string[] }[];
        const entry = catalog.find((s) => s.name === profile.serviceHook?.name);
        const dropped = entry?.supported_events?.filter((e) => e !== "*").at(-1);
        if (!entry || !dropped) return;
        entry.supported_events = entry.supported_events!.filter((e) => e !== dropped);
        entry.events = entry.events?.filter((e) => e !== dropped);
        res.body = Buffer.from(JSON.stringify(catalog));
      },
    }),
  },
  {
    name: "narrowing-keeps-codes",
    rule: "D-REF-NARROW-ENDS-CODES",
    class: "path-never-taken",
    only: "OAUTH-NARROWCODES-001",
    fails: ["OAUTH-NARROWCODES-001"],
    // PATCH /authorizations/{id} answers the narrowed scopes but leaves the grant (and the codes
    // issued under it) as they were: a code from before exchanges at the old, wider scopes.
    fault: () => {
      const asked = new Map<string, unknown>();
      return {
        request(side, req) {
          if (side !== "api" || req.method !== "PATCH" || !/^\/authorizations\/\d+$/.test(pathOf(req))) return;
          const body = JSON.parse(req.body.toString("utf8")) as { scopes?: unknown };
          if (body.scopes === undefined) return;
          asked.set(req.url, body.scopes);
          // Adding what it asked for keeps every scope the grant had.
          req.body = Buffer.from(JSON.stringify({ add_scopes: body.scopes }));
        },
        response(side, req, res) {
          if (side !== "api" || req.method !== "PATCH" || !asked.has(req.url) || res.status !== 200) return;
          res.body = Buffer.from(JSON.stringify({ ...(JSON.parse(res.body.toString("utf8")) as object), scopes: asked.get(req.url) }));
        },
      };
    },
  },
  {
    name: "token-basic-ignored",
    rule: "D-OAUTH-CLIENT-BASIC",
    class: "path-never-taken",
    only: "OAUTH-CLIENTAUTH-001",
    fails: ["OAUTH-CLIENTAUTH-001"],
    // The token endpoint reads the body only: HTTP Basic client authentication is never seen.
    fault: () => ({
      request(side, req) {
        if (side === "auth" && req.method === "POST" && pathOf(req) === TOKEN_PATH) delete req.headers.authorization;
      },
    }),
  },
];
