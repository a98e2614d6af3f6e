/**
 * Issue 40: no seed rule fails on a contract schema. Where the seed names a field only by its type
 * or a step only by its outcome, the contract's `format`, `pattern` and exact status are its own
 * choice (D-SCHEMA-PRECISION), never a seed rule; a relative `Location` is a URI-reference, as
 * RFC 9110 §10.2.2 allows; a missing field or header is still the seed's. The real-HTTP proof is
 * the blind servers' runs (test/conformance/blind-servers.test.ts): one answers the signed-out
 * authorize with `302 /login?return_to=…`.
 */
import { describe, expect, it } from "vitest";
import { PRECISION_RULE, ruleOfViolation } from "../../conformance/rules/contract-rules.ts";
import { validateResponse } from "../../generated/validators/index.js";

describe("a contract format under a seed rule", () => {
  it.each([
    // The sign-in step's relative redirect, had it been refused by the format (it no longer is).
    [{ operationId: "authorize", status: 302, path: "/headers/location", message: 'must match format "uri-reference"' }, PRECISION_RULE],
    // A timestamp in another ISO 8601 form (the seed: "ISO 8601 UTC timestamp").
    [{ operationId: "listPublicEvents", status: 200, path: "/body/0/created_at", message: 'must match format "date-time"' }, PRECISION_RULE],
    [{ operationId: "listIssueEventsForRepo", status: 200, path: "/body/0/commit_id", message: 'must match pattern "^[0-9a-f]{40}$"' }, PRECISION_RULE],
    [{ operationId: "listIssueEventsForRepo", status: 200, path: "/body/0/issue/created_at", message: 'must match format "date-time"' }, PRECISION_RULE],
    // A redirect with another 3xx: the seed says "redirected", the contract 302.
    [{ operationId: "authorize", status: 303, path: "/status", message: "authorize: status 303 is not in the contract" }, PRECISION_RULE],
  ])("%j counts against D-SCHEMA-PRECISION, not the seed", (v, rule) => {
    expect(ruleOfViolation(v)).toBe(rule);
  });

  it.each([
    // What the seed states stays the seed's: a missing header or field, a kind the seed lists.
    [{ operationId: "authorize", status: 302, path: "/headers/location", message: "is required" }, "S-OAUTH-AUTHORIZE"],
    [{ operationId: "listPublicEvents", status: 200, path: "/body/0/actor/login", message: "is required" }, "S-ACTIVITY-EVENT-FIELDS"],
    [{ operationId: "listIssueEventsForRepo", status: 200, path: "/body/0/event", message: "must be equal to one of the allowed values" }, "S-ISSUE-EVENT-KINDS"],
    // A decision's pattern stays that decision's.
    [{ operationId: "listPublicEvents", status: 200, path: "/body/0/id", message: 'must match pattern "^[0-9]+$"' }, "D-ACTIVITY-ID"],
  ])("%j stays with %s", (v, rule) => {
    expect(ruleOfViolation(v)).toBe(rule);
  });
});

describe("Location is a URI-reference (RFC 9110 §10.2.2)", () => {
  it.each(["/login?return_to=%2Flogin%2Foauth%2Fauthorize%3Fclient_id%3Dabc", "login", "https://app.example/cb?code=abc&state=x"])("the authorize redirect to %j validates", (location) => {
    expect(validateResponse("authorize", 302, undefined, { headers: { location } }).valid).toBe(true);
  });

  it.each(["/repos/octo/hello/hooks/7", "https://api.example/repos/octo/hello/hooks/7"])("a created hook's Location %j validates", (location) => {
    const hook = { id: 7 };
    const result = validateResponse("createRepoHook", 201, hook, { headers: { location } }) as { valid: boolean; errors?: { path: string }[] };
    expect(result.errors?.filter((e) => e.path === "/headers/location") ?? []).toEqual([]);
  });

  it("whitespace is still no URI-reference", () => {
    expect(validateResponse("authorize", 302, undefined, { headers: { location: "/login ?x" } }).valid).toBe(false);
  });
});
