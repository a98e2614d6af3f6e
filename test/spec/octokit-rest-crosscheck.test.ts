/**
 * Our response schemas against the counterpart's published REST description (`@octokit/openapi`):
 * its example responses and its schemas, for every operation both describe (issue 24 point 4,
 * spec/DECISIONS.md D-RECEIVED-RESPONSES).
 *
 * - Every example response they publish for a shared operation goes through the generated
 *   `validateResponse`; each passes, or each error it gets has a reason in DECISIONS.md (kind
 *   `example`) with the seed line it rests on.
 * - Every field where our schema is stricter than theirs (schema-strictness.ts; feeds compared
 *   event type by event type) has a reason in DECISIONS.md: the seed line it rests on, or a
 *   decision of ours (a `D-` rule recorded in DECISIONS.md) where the finding is the comparison's,
 *   not a refusal of anything the service sends. A reason that no longer matches a finding fails,
 *   so the list cannot drift.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { crossCheckResponses, exampleResults, format, nullableToJsonSchema, type ResponseFinding } from "./octokit-rest-crosscheck.ts";

const root = join(import.meta.dirname, "../..");
const decisions = readFileSync(join(root, "spec/DECISIONS.md"), "utf8");
const seedFile = join(root, "../shared/seed/service-interface-spec.md");

export interface Reason {
  units: string[];
  pointer: string;
  kind: string;
  line: string;
  /** The seed line it rests on, quoted verbatim… */
  seed?: string;
  /** …or the decision of ours it rests on (`D-…`, recorded in DECISIONS.md). */
  decision?: string;
}

/** `*` in a unit matches any text. */
const unitPattern = (glob: string) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
/** In a pointer, `**` is any path (zero or more segments); every other segment is literal (`*` is an array item). */
function pointerPattern(glob: string): RegExp {
  const segments = glob.split("/").filter((s, i) => !(i === 0 && s === ""));
  const body = segments.map((s) => (s === "**" ? "(?:/[^/]*)*" : `/${s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`)).join("");
  return new RegExp(`^${body}$`);
}

export function matches(r: Reason, unit: string, pointer: string, kind: string): boolean {
  return r.kind === kind && r.units.some((u) => unitPattern(u).test(unit)) && pointerPattern(r.pointer).test(pointer);
}

function reasons(): Reason[] {
  const start = decisions.indexOf("<!-- stricter-than-published-rest");
  const end = decisions.indexOf("<!-- /stricter-than-published-rest -->");
  if (start < 0 || end < start) throw new Error("spec/DECISIONS.md has no stricter-than-published-rest list");
  return decisions
    .slice(start, end)
    .split("\n")
    .filter((l) => /^\s+- `/.test(l))
    .map((line) => {
      const m = /^\s+- `([^`]+)` `([^`]+)` (requires|null|type|enum|example) — (.+?) (?:Seed: "(.+)"|Reason: (D-[A-Z0-9-]+)\.)$/.exec(line);
      if (!m) throw new Error(`unreadable reason line in spec/DECISIONS.md: ${line}`);
      return { units: m[1]!.split(","), pointer: m[2]!, kind: m[3]!, seed: m[5], decision: m[6], line: line.trim() };
    });
}

const listed = reasons();
const check = crossCheckResponses();
const examples = exampleResults();
const exampleErrors = examples.flatMap((e) => e.errors.map((err) => ({ unit: `${e.operationId} ${e.status}`, pointer: err.path.replace(/^\/body/, ""), message: err.message, name: e.name })));
const seedReasonFor = (f: ResponseFinding) => listed.find((r) => matches(r, f.unit, f.pointer, f.kind));

describe("the counterpart's example responses (@octokit/openapi) through validateResponse", () => {
  it("runs the examples of every shared operation: feeds, issue events, hooks and deliveries", () => {
    const ops = new Set(examples.map((e) => e.operationId));
    for (const op of ["listPublicEvents", "listRepoEvents", "listUserOrgEvents", "listIssueEventsForIssue", "listIssueEventsForRepo", "getIssueEvent", "listRepoHooks", "getOrgHook", "listRepoHookDeliveries", "getOrgHookDelivery", "redeliverRepoHookDelivery"])
      expect(ops, op).toContain(op);
    const passed = examples.filter((e) => e.errors.length === 0);
    console.info(`@octokit/openapi example responses: ${passed.length}/${examples.length} pass validateResponse; refused: ${examples.filter((e) => e.errors.length).map((e) => `${e.operationId} ${e.status}`).join(", ")}`);
  });

  it.each(examples.map((e) => [`${e.operationId} ${e.status} ${e.name}`, e] as const))("%s passes, or is refused only where the seed says", (_label, e) => {
    const unexplained = e.errors.filter((err) => !listed.some((r) => matches(r, `${e.operationId} ${e.status}`, err.path.replace(/^\/body/, ""), "example")));
    expect(unexplained, JSON.stringify(unexplained)).toEqual([]);
  });

  it("accepts what the issue names: a feed's PushEvent without size/distinct_size/commits, a repository's CreateEvent with its default branch as ref", () => {
    const feeds = examples.filter((e) => /Events$/.test(e.operationId) && !e.operationId.startsWith("listIssue"));
    expect(feeds.length).toBeGreaterThanOrEqual(9);
    const items = feeds.flatMap((e) => e.value as { type: string; payload: Record<string, unknown> }[]);
    expect(items.some((i) => i.type === "PushEvent" && !("size" in i.payload))).toBe(true);
    expect(items.some((i) => i.type === "CreateEvent" && i.payload.ref_type === "repository" && typeof i.payload.ref === "string")).toBe(true);
    for (const e of feeds) expect(e.errors, `${e.operationId}`).toEqual([]);
  });

  it("accepts an organization hook without last_response and a delivery log entry without attempt, next_attempt_at and url", () => {
    const orgHooks = examples.filter((e) => /OrgHooks?$/.test(e.operationId) && /^20\d$/.test(e.status));
    expect(orgHooks.length).toBeGreaterThanOrEqual(4);
    for (const e of orgHooks) {
      expect([e.value].flat().every((h) => !("last_response" in (h as object))), e.operationId).toBe(true);
      expect(e.errors, e.operationId).toEqual([]);
    }
    const logs = examples.filter((e) => /HookDeliveries$/.test(e.operationId));
    expect(logs.length).toBe(2);
    for (const e of logs) {
      expect((e.value as object[]).every((d) => !("attempt" in d) && !("next_attempt_at" in d)), e.operationId).toBe(true);
      expect(e.errors, e.operationId).toEqual([]);
    }
  });
});

describe("cross-check of the response schemas against @octokit/openapi", () => {
  it("compares every shared operation with a JSON success body, and the feeds type by type", () => {
    expect(check.compared).toEqual(expect.arrayContaining(["feed:PushEvent", "feed:CreateEvent", "feed:IssuesEvent", "listIssueEventsForIssue 200", "getIssueEvent 200", "listRepoHooks 200", "getOrgHook 200", "getRepoHookDelivery 200"]));
    const bySeed = check.findings.filter((f) => seedReasonFor(f)?.seed).length;
    const byDecision = check.findings.filter((f) => seedReasonFor(f)?.decision).length;
    console.info(
      `@octokit/openapi schemas: ${check.compared.length} units compared (activity types they do not describe: ${check.uncompared.join(", ")}); ` +
        `${check.findings.length} stricter fields: ${bySeed} with a seed reason, ${byDecision} with a decision of ours as the reason`,
    );
  });

  it("finds no stricter field the issue named as harmful (loosened: D-RECEIVED-RESPONSES)", () => {
    const harmful = check.findings.filter(
      (f) =>
        (f.unit === "feed:PushEvent" && /^\/payload\/(size|distinct_size|commits)$/.test(f.pointer)) ||
        (f.unit === "feed:CreateEvent" && f.pointer === "/payload/ref") ||
        (/HookDeliver/.test(f.unit) && /\/(attempt|next_attempt_at|url)$/.test(f.pointer)),
    );
    expect(harmful.map(format)).toEqual([]);
  });

  it("every stricter field has its reason in DECISIONS.md (a seed line or a recorded decision)", () => {
    const unexplained = check.findings.filter((f) => !seedReasonFor(f)).map(format);
    expect(unexplained, `stricter than @octokit/openapi without a reason:\n${unexplained.join("\n")}`).toEqual([]);
  });

  it("every listed reason still matches a finding or an example error (the lists cannot drift)", () => {
    const live = (r: Reason) =>
      r.kind === "example"
        ? exampleErrors.some((e) => matches(r, e.unit, e.pointer, "example"))
        : check.findings.some((f) => matches(r, f.unit, f.pointer, f.kind));
    expect(listed.filter((r) => !live(r)).map((r) => r.line)).toEqual([]);
  });

  it("a decision given as a reason is one recorded in DECISIONS.md, and never stands in for an example error", () => {
    const recorded = new Set([...decisions.matchAll(/^\s*- \[(D-[A-Z0-9-]+)\]/gm)].map((m) => m[1]));
    const byDecision = listed.filter((r) => r.decision);
    expect(byDecision.filter((r) => !recorded.has(r.decision!)).map((r) => r.line)).toEqual([]);
    expect(byDecision.filter((r) => r.kind === "example").map((r) => r.line)).toEqual([]);
  });

  it.runIf(existsSync(seedFile))("every reason quotes a line of the seed verbatim", () => {
    const seed = readFileSync(seedFile, "utf8");
    expect(listed.filter((r) => r.seed !== undefined && !seed.includes(r.seed)).map((r) => r.line)).toEqual([]);
  });

  it("reads OpenAPI 3.0's nullable as a null type", () => {
    expect(nullableToJsonSchema({ type: "string", nullable: true })).toEqual({ type: ["string", "null"] });
    expect(nullableToJsonSchema({ type: "string", enum: ["a"], nullable: true })).toEqual({ type: ["string", "null"], enum: ["a", null] });
    expect(nullableToJsonSchema({ allOf: [{ $ref: "#/x" }], nullable: true })).toEqual({ anyOf: [{ allOf: [{ $ref: "#/x" }] }, { type: "null" }] });
    expect(nullableToJsonSchema({ properties: { a: { type: "integer", nullable: true } } })).toEqual({ properties: { a: { type: ["integer", "null"] } } });
  });

  it("matches units and pointers as the list's format says", () => {
    const r: Reason = { units: ["*HookDelivery 200"], pointer: "**/gravatar_id", kind: "null", line: "" };
    expect(matches(r, "getOrgHookDelivery 200", "/sender/gravatar_id", "null")).toBe(true);
    expect(matches(r, "getOrgHookDelivery 200", "/gravatar_id", "null")).toBe(true);
    expect(matches(r, "listOrgHookDeliveries 200", "/gravatar_id", "null")).toBe(false);
    expect(matches(r, "getOrgHookDelivery 200", "/gravatar_idx", "null")).toBe(false);
    expect(matches({ ...r, pointer: "/**/labels/*/name" }, "getOrgHookDelivery 200", "/*/issue/labels/*/name", "null")).toBe(true);
    expect(matches({ ...r, pointer: "/**/labels/*/name" }, "getOrgHookDelivery 200", "/*/issue/labels/0/name", "null")).toBe(false);
  });
});
