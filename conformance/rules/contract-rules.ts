/**
 * Which rule a response breaks, when it breaks the contract. Every response a case reads is
 * validated against the whole contract; a problem found there is counted against the one rule
 * that the schema keyword or header encodes — a missing `X-RateLimit-Reset` against D-RATE-RESET,
 * a non-numeric activity `id` against D-ACTIVITY-ID, a missing `actor` against the seed's
 * S-ACTIVITY-EVENT-FIELDS — and not against whatever case happened to read the response. So one
 * departure fails one rule, and a decision the profile switches off takes its keywords with it.
 *
 * The table is read top to bottom; the first entry whose operation group, path and message match
 * names the rule. The groups and rules follow spec/openapi.yaml and spec/DECISIONS.md; a problem
 * no entry names falls to the operation group's own decision (the shape the contract chose where
 * the seed shows none), or to the seed rule of the group when the seed shows the shape.
 */
export interface Violation {
  operationId: string;
  status: number;
  /** JSON pointer into `{status, headers, body}`, as the generated validators report it. */
  path: string;
  message: string;
  body?: unknown;
}

type Group = "feeds" | "issue-events" | "hooks" | "pings" | "catalog" | "deliveries" | "authorizations" | "app-tokens" | "token" | "authorize" | "review";

const GROUPS: Record<Group, RegExp> = {
  feeds: /^list\w*Events$/,
  "issue-events": /^(listIssueEventsFor\w+|getIssueEvent)$/,
  hooks: /^(create|get|list|update|delete)(Repo|Org)Hooks?$/,
  pings: /^(ping|test)(Repo|Org)Hook$/,
  catalog: /^listServiceHooks$/,
  deliveries: /^(list|get|redeliver)(Repo|Org)HookDeliver(y|ies)$/,
  authorizations: /^(create|get|list|update|delete)Authorizations?$|^getOrCreateAuthorization/,
  "app-tokens": /^(check|reset|revoke)Application(Token|Grant)$/,
  token: /^createAccessToken$/,
  authorize: /^authorize$/,
  review: /^getApplicationReview$/,
};

function groupOf(operationId: string): Group | undefined {
  return (Object.keys(GROUPS) as Group[]).find((g) => GROUPS[g].test(operationId));
}

interface Entry {
  /** Operation groups it applies to; omitted: every operation. */
  groups?: readonly Group[];
  path: RegExp;
  message?: RegExp;
  /** Only when the status is an error (≥ 400) or a success (< 400). */
  errors?: boolean;
  /** Only when the body is an OAuth error object (`{error, …}`). */
  oauthError?: boolean;
  rule: string;
}

const MISSING = /^is required$/;
const SHAPE = /^(is required|must be (string|integer|number|boolean|object|array|null)|must have required property)/;

const TABLE: readonly Entry[] = [
  // Headers the seed names, and the values the contract chose for them.
  { path: /^\/headers\/x-ratelimit-reset$/, rule: "D-RATE-RESET" },
  { path: /^\/headers\/x-ratelimit-(limit|remaining)$/, rule: "S-LIMIT-RATE-HEADERS" },
  { path: /^\/headers\/etag$/, message: MISSING, rule: "S-FEED-HEADERS" },
  { path: /^\/headers\/etag$/, rule: "D-ETAG" },
  { path: /^\/headers\/x-poll-interval$/, message: MISSING, rule: "S-FEED-HEADERS" },
  { path: /^\/headers\/x-poll-interval$/, rule: "D-POLL-INTERVAL" },
  { groups: ["feeds"], path: /^\/headers\/link$/, rule: "S-FEED-HEADERS" },
  { path: /^\/headers\/link$/, rule: "D-LIST-PAGINATION" },
  { path: /^\/headers\/x-(accepted-)?oauth-scopes$/, message: MISSING, rule: "S-SCOPE-HEADERS" },
  { path: /^\/headers\/x-(accepted-)?oauth-scopes$/, rule: "D-SCOPE-HEADERS" },
  { path: /^\/headers\/x-service-otp$/, rule: "D-NONWEB-TWO-FACTOR" },
  { groups: ["authorize"], path: /^\/headers\/location$/, rule: "S-OAUTH-AUTHORIZE" },

  // Error answers: the contract's shape (the seed shows none but the OAuth ones).
  { groups: ["token"], path: /^\/body/, oauthError: true, rule: "S-OAUTH-TOKEN-ERRORS" },
  { path: /^\/status$/, errors: true, groups: ["token"], rule: "D-OAUTH-TOKEN-ERROR-STATUS" },
  { path: /^\/body/, errors: true, message: /Validation|errors/, rule: "D-SCHEMA-VALIDATION-ERROR" },
  { path: /^\/body\/errors/, errors: true, rule: "D-SCHEMA-VALIDATION-ERROR" },
  // The authorize step's only error status is the 404 page for a request it refuses (an unknown client).
  { path: /^\/status$/, errors: true, groups: ["authorize"], rule: "D-OAUTH-AUTHORIZE-UNKNOWN-CLIENT" },
  { path: /^\/(body|status)/, errors: true, groups: ["authorize", "review"], rule: "D-OAUTH-PAGES" },
  { path: /^\/(body|status)/, errors: true, rule: "D-ERRORS" },

  // Activity feeds: the seed's fields; the id format, type names and payloads are decisions.
  { groups: ["feeds"], path: /^\/body$/, rule: "S-FEED-ENDPOINTS" },
  { groups: ["feeds"], path: /^\/body\/\d+\/id$/, message: /^must match pattern/, rule: "D-ACTIVITY-ID" },
  { groups: ["feeds"], path: /^\/body\/\d+\/type$/, message: /^(must be equal to|must match|value of tag)/, rule: "D-ACTIVITY-TYPE" },
  { groups: ["feeds"], path: /^\/body\/\d+\/payload\/./, rule: "D-ACTIVITY-PAYLOADS" },
  { groups: ["feeds"], path: /^\/body\/\d+\/(repo|actor|org)\/./, message: SHAPE, rule: "S-ACTIVITY-EVENT-FIELDS" },
  { groups: ["feeds"], path: /^\/body\/\d+\/(repo|actor|org)\/./, rule: "D-SCHEMA-USER-TYPE" },
  { groups: ["feeds"], path: /^\/body/, rule: "S-ACTIVITY-EVENT-FIELDS" },

  // Issue events: all seed fields, but for the null commit_id and the nullable details.
  { groups: ["issue-events"], path: /^\/body(\/\d+)?\/issue$/, rule: "S-ISSUE-EVENT-ISSUE-FIELD" },
  { groups: ["issue-events"], path: /^\/body(\/\d+)?\/issue\/(milestone|pull_request|body|locked)/, message: /null|required|boolean/, rule: "D-SCHEMA-ISSUE" },
  { groups: ["issue-events"], path: /^\/body(\/\d+)?\/issue\/./, rule: "S-ISSUE-OBJECT" },
  { groups: ["issue-events"], path: /^\/body(\/\d+)?\/commit_id$/, message: /null/, rule: "D-SCHEMA-ISSUE-EVENT-COMMIT-ID" },
  { groups: ["issue-events"], path: /^\/body(\/\d+)?\/commit_id$/, rule: "S-ISSUE-EVENT-COMMIT-ID" },
  { groups: ["issue-events"], path: /^\/body(\/\d+)?\/(label|assignee|milestone|rename)$/, rule: "S-ISSUE-EVENT-KIND-FIELDS" },
  { groups: ["issue-events"], path: /^\/body(\/\d+)?\/(actor|assignee)\/./, message: SHAPE, rule: "S-USER-OBJECT" },
  { groups: ["issue-events"], path: /^\/body(\/\d+)?\/(actor|assignee)\/./, rule: "D-SCHEMA-USER-TYPE" },
  { groups: ["issue-events"], path: /^\/body(\/\d+)?\/event$/, rule: "S-ISSUE-EVENT-KINDS" },
  { groups: ["issue-events"], path: /^\/body/, rule: "S-ISSUE-EVENT-FIELDS" },

  // Hooks: the whole hook API is the contract's (the seed shows none of it).
  { groups: ["hooks"], path: /^\/body(\/\d+)?\/config\/secret$/, rule: "D-SCHEMA-SECRET" },
  { groups: ["hooks"], path: /^\/body(\/\d+)?\/last_response/, rule: "D-SCHEMA-LAST-RESPONSE" },
  { groups: ["hooks"], path: /^\/body(\/\d+)?\/test_url$/, rule: "D-SCHEMA-TEST-URL" },
  { groups: ["hooks"], path: /^\/body(\/\d+)?\/name$/, rule: "D-SCHEMA-HOOK-NAME" },
  { groups: ["hooks"], path: /^\/body(\/\d+)?\/events/, message: /items|const|contains/, rule: "D-SCHEMA-HOOK-WILDCARD" },
  { groups: ["hooks"], path: /^\/body(\/\d+)?\/events/, rule: "S-WEBHOOK-EVENTS" },
  { groups: ["catalog"], path: /^\/body(\/\d+)?\/schema/, rule: "D-SCHEMA-CATALOG" },
  // The recorded signature headers are what D-SIGNATURE chose (the seed shows no algorithm).
  { groups: ["deliveries"], path: /^\/body\/request\/headers\/X-Hub-Signature(-256)?$/, rule: "D-SIGNATURE" },
  { groups: ["deliveries"], path: /^\/body/, message: /./, rule: "D-SCHEMA-DELIVERY-LOG" },
  { groups: ["authorizations"], path: /^\/body(\/\d+)?\/(token|hashed_token|token_last_eight)$/, rule: "D-SCHEMA-AUTHORIZATION-TOKEN" },
  { groups: ["token"], path: /^\/body\/scope$/, message: /^must match pattern/, rule: "D-SCHEMA-ACCESS-TOKEN-SCOPE" },
  // XML is the seed's; that it is application/xml (not text/xml or another +xml type) is the contract's.
  { groups: ["token"], path: /^\/body/, message: /content type "(text\/xml|application\/[\w.-]+\+xml)"/, rule: "D-OAUTH-TOKEN-FORMATS" },
  { groups: ["token"], path: /^\/body/, message: /content type/, rule: "S-OAUTH-TOKEN-FORMATS" },
  { groups: ["token"], path: /^\/body/, rule: "S-TOKEN-RESPONSE-FIELDS" },
  { groups: ["authorize"], path: /^\/status$/, rule: "S-OAUTH-AUTHORIZE" },
];

/** What an operation group's answers fall to when no entry names a rule. */
const GROUP_DEFAULT: Record<Group, string> = {
  feeds: "S-ACTIVITY-EVENT-FIELDS",
  "issue-events": "S-ISSUE-EVENT-FIELDS",
  hooks: "D-HOOK-ENDPOINTS",
  pings: "D-PING-ENDPOINT",
  catalog: "D-SERVICE-CATALOG-SHAPE",
  deliveries: "D-DELIVERY-RETRIES",
  authorizations: "D-NONWEB-AUTHORIZATIONS",
  "app-tokens": "D-NONWEB-APP-TOKENS",
  token: "S-TOKEN-RESPONSE-FIELDS",
  authorize: "D-OAUTH-AUTHORIZE-ERRORS",
  review: "D-OAUTH-REVIEW-PAGE",
};

/** A status the contract does not declare for a successful answer: the group's decision on statuses. */
const STATUS_RULE: Partial<Record<Group, string>> = {
  feeds: "D-ERRORS",
  "issue-events": "D-ERRORS",
  catalog: "D-ERRORS",
  hooks: "D-HOOK-STATUSES",
  pings: "D-PING-ENDPOINT",
};

function isOAuthError(body: unknown): boolean {
  return typeof body === "object" && body !== null && "error" in body;
}

/**
 * Where the seed names a field only by its type or an outcome only in words ("an ISO 8601
 * timestamp", "a URL", "the user is redirected"), the contract's `format`, `pattern` and exact
 * status make it precise — and that precision is a choice of ours (D-SCHEMA-PRECISION), never a
 * seed rule: a seed rule is checked only as the seed states it.
 */
export const PRECISION_RULE = "D-SCHEMA-PRECISION";
const PRECISION_MESSAGE = /^must match (format|pattern)\b/;

function seedOrPrecision(rule: string, v: Violation): string {
  if (!rule.startsWith("S-")) return rule;
  return PRECISION_MESSAGE.test(v.message) || v.path === "/status" ? PRECISION_RULE : rule;
}

/** The rule a contract problem in a response counts against. */
export function ruleOfViolation(v: Violation): string {
  return seedOrPrecision(ruleOfTable(v), v);
}

function ruleOfTable(v: Violation): string {
  const group = groupOf(v.operationId);
  const error = v.status >= 400;
  for (const e of TABLE) {
    if (e.groups && (!group || !e.groups.includes(group))) continue;
    if (e.errors !== undefined && e.errors !== error) continue;
    if (e.oauthError && !isOAuthError(v.body)) continue;
    if (!e.path.test(v.path)) continue;
    if (e.message && !e.message.test(v.message)) continue;
    return e.rule;
  }
  if (v.path === "/status") return (group && STATUS_RULE[group]) ?? (group ? GROUP_DEFAULT[group] : "D-ERRORS");
  return group ? GROUP_DEFAULT[group] : "D-ERRORS";
}

/** Every rule the table can name, for the rule-table test (each must be a rule of the table). */
export function violationRules(): string[] {
  return [...new Set([...TABLE.map((e) => e.rule), ...Object.values(GROUP_DEFAULT), ...Object.values(STATUS_RULE), PRECISION_RULE])].sort();
}
