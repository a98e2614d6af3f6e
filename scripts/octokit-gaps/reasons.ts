/**
 * Why our deliveries lack what `@octokit/webhooks-schemas` requires: one reason per definition
 * of theirs (or per field of it), each naming the seed rule (`S-`, spec/seed-rules.yaml) or the
 * decision (`D-`, spec/DECISIONS.md) it rests on. These are the only hand-kept part of the
 * README table; the findings themselves come from the cross-check, and the test fails on a
 * finding without a reason and on a reason no finding uses (test/spec/octokit-receiver-gaps.test.ts).
 */
export interface Reason {
  /** Their definition (`user`, `issue`, `pull_request$synchronize`). */
  definition: string;
  /** The fields it explains; all of the definition's when absent. */
  fields?: readonly string[];
  /** Only at these places (`event:/pointer`), when absent everywhere. */
  at?: readonly string[];
  why: string;
  rule: string;
}

const LATER = "later features' fields, not sent";
const MIRRORED = "the payload is the activity payload (`action`, `number`, `pull_request`) plus `sender` and `repository`";

export const REASONS: readonly Reason[] = [
  { definition: "user", at: ["push:/repository/owner"], why: "the push webhook's repository owner is a Git identity `{name, email}`", rule: "D-SCHEMA-PUSH-REPOSITORY-OWNER" },
  { definition: "status$event", fields: ["node_id"], why: "the status's `commit` is the commits API's Git object, which has no `id` to make a node ID of", rule: "D-WEBHOOK-NODE-ID" },
  { definition: "commit_comment$created", fields: ["action"], why: "no `action`: the seed's trigger has one kind", rule: "D-SCHEMA-WEBHOOK-ACTION" },
  { definition: "deployment$created", fields: ["action"], why: "no `action`: the seed's trigger has one kind", rule: "D-SCHEMA-WEBHOOK-ACTION" },
  { definition: "deployment_status$created", fields: ["action"], why: "no `action`: the seed's trigger has one kind", rule: "D-SCHEMA-WEBHOOK-ACTION" },
  { definition: "pull_request$synchronize", why: MIRRORED, rule: "D-SCHEMA-WEBHOOK-MIRROR" },
  { definition: "issue", why: `the seed's Issue object lists its fields; these are ${LATER}`, rule: "S-ISSUE-OBJECT" },
  { definition: "label", why: "the seed's labels are `url`, `name`, `color`; this server keeps no label description", rule: "S-ISSUE-OBJECT" },
  { definition: "issue-comment", why: LATER, rule: "D-WEBHOOK-NODE-ID" },
  { definition: "pull-request", why: LATER, rule: "D-WEBHOOK-NODE-ID" },
  { definition: "pull_request$opened", why: LATER, rule: "D-WEBHOOK-NODE-ID" },
  { definition: "pull_request_review_comment$created", why: `the pull request in a review comment is the short form (D-SCHEMA-PULL-REQUEST); ${LATER}`, rule: "D-WEBHOOK-NODE-ID" },
  { definition: "pull-request-review-comment", why: LATER, rule: "D-WEBHOOK-NODE-ID" },
  { definition: "commit_comment$created", why: LATER, rule: "D-WEBHOOK-NODE-ID" },
  { definition: "deployment$created", why: LATER, rule: "D-WEBHOOK-NODE-ID" },
  { definition: "deployment_status$created", why: LATER, rule: "D-WEBHOOK-NODE-ID" },
  { definition: "deployment", why: LATER, rule: "D-WEBHOOK-NODE-ID" },
  { definition: "status$event", why: LATER, rule: "D-WEBHOOK-NODE-ID" },
  { definition: "team", why: LATER, rule: "D-WEBHOOK-NODE-ID" },
];

/** Why a delivery differs from their schema other than by a missing field: by event and place. */
export interface OtherReason {
  event: string;
  path: string;
  why: string;
  rule: string;
}

export const OTHER_REASONS: readonly OtherReason[] = [
  { event: "create", path: "/ref", why: "a repository's `create` has `ref: null`; their schema knows branches and tags only", rule: "D-SCHEMA-ACTIVITY-CREATE" },
  { event: "create", path: "/ref_type", why: "`ref_type: repository` for a new repository, as the era's feed sent it", rule: "D-SCHEMA-ACTIVITY-CREATE" },
  { event: "deployment_status", path: "/deployment_status/description", why: "null when the status was given none", rule: "D-SCHEMA-ACTIVITY-SMALL-PAYLOADS" },
  { event: "deployment_status", path: "/deployment_status/target_url", why: "null when the status was given none", rule: "D-SCHEMA-ACTIVITY-SMALL-PAYLOADS" },
  { event: "pull_request_review_comment", path: "/pull_request", why: "the reference's pull request carries its merge and count fields in the short form too; their short form forbids them", rule: "D-SCHEMA-PULL-REQUEST" },
  { event: "release", path: "/release/body", why: "null when the release was given no notes", rule: "D-SCHEMA-ACTIVITY-SMALL-PAYLOADS" },
  { event: "release", path: "/release/name", why: "null when the release was given no name", rule: "D-SCHEMA-ACTIVITY-SMALL-PAYLOADS" },
];

export function otherReasonFor(event: string, path: string): OtherReason | undefined {
  return OTHER_REASONS.find((r) => r.event === event && r.path === path);
}

/** The reason for one missing field, or undefined. */
export function reasonFor(definition: string, field: string, place: string): Reason | undefined {
  return REASONS.find((r) => r.definition === definition && (!r.fields || r.fields.includes(field)) && (!r.at || r.at.includes(place)));
}

/** Where a rule is written: seed rules in spec/seed-rules.yaml, decisions in spec/DECISIONS.md. */
export function ruleLink(rule: string): string {
  return `[${rule}](${rule.startsWith("S-") ? "spec/seed-rules.yaml" : "spec/DECISIONS.md"})`;
}
