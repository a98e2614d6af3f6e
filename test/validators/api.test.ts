/**
 * The public API of `service-contract/validators` beyond schema checks: status and media-type
 * selection for responses, header validation, request coercion, bodies given as text in each
 * media type, the issue-event forms, and clear failures for names the contract does not know.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import {
  operationIds,
  validateActivityEvent,
  validateIssueEvent,
  validateRequest,
  validateResponse,
  validateSchema,
  validateWebhook,
} from "../../generated/validators/index.js";

const feedHeaders = {
  "Content-Type": "application/json; charset=utf-8",
  ETag: '"abc"',
  "X-Poll-Interval": "60",
  "X-RateLimit-Limit": "60",
  "X-RateLimit-Remaining": "59",
  "X-RateLimit-Reset": "1700000000",
};

describe("validateResponse", () => {
  it.each([
    ["an empty feed page with all polling headers", "listPublicEvents", 200, "[]", feedHeaders, true],
    ["a 304 without a body", "listPublicEvents", 304, undefined, { ...feedHeaders, "Content-Type": undefined }, true],
    ["a 304 that carries a body", "listPublicEvents", 304, "[]", { ...feedHeaders, "Content-Type": undefined }, false],
    ["a feed page without ETag", "listPublicEvents", 200, "[]", { ...feedHeaders, ETag: undefined }, false],
    ["a feed page whose poll interval is not a number", "listPublicEvents", 200, "[]", { ...feedHeaders, "X-Poll-Interval": "soon" }, false],
    ["a feed page that is not an array", "listPublicEvents", 200, "{}", feedHeaders, false],
    ["malformed JSON", "listPublicEvents", 200, "[", feedHeaders, false],
    ["a status the contract does not list", "listPublicEvents", 418, "{}", feedHeaders, false],
  ] as const)("%s", (_name, op, status, body, headers, valid) => {
    const result = validateResponse(op, status, body, { headers });
    expect(result.valid, JSON.stringify(result)).toBe(valid);
  });

  it("says a problem inside an if/then once, at the value that has it, without the wrapping \"must match then\"", () => {
    const doc = parse(readFileSync(new URL("../../spec/openapi.yaml", import.meta.url), "utf8")) as { components: { examples: Record<string, { value: Record<string, unknown> }> } };
    const { test_url: _dropped, ...hook } = doc.components.examples.RepoWebHook!.value;
    expect(validateResponse("getRepoHook", 200, JSON.stringify(hook), { mediaType: "application/json" })).toEqual({ valid: false, errors: [{ path: "/body/test_url", message: "is required" }] });
  });

  it("names the offending header with a JSON pointer", () => {
    const result = validateResponse("listPublicEvents", 200, "[]", { headers: { ...feedHeaders, ETag: undefined } });
    expect(result.valid).toBe(false);
    if (!result.valid) expect(result.errors).toContainEqual({ path: "/headers/etag", message: "is required" });
  });

  it.each([
    ["application/json", JSON.stringify({ access_token: "e72e16c7e42f292c6912e7710c838347ae178b4a", scope: "repo,gist", token_type: "bearer" })],
    ["application/x-www-form-urlencoded", "access_token=e72e16c7e42f292c6912e7710c838347ae178b4a&scope=repo%2Cgist&token_type=bearer"],
    ["application/xml", "<OAuth><token_type>bearer</token_type><scope>repo,gist</scope><access_token>e72e16c7e42f292c6912e7710c838347ae178b4a</access_token></OAuth>"],
  ])("parses and validates a token response in %s", (mediaType, body) => {
    const result = validateResponse("createAccessToken", 200, body, { mediaType });
    expect(result.valid, JSON.stringify(result)).toBe(true);
  });

  it.each([
    ["application/json", JSON.stringify({ error: "bad_verification_code", error_description: "The code passed is incorrect or expired.", error_uri: "https://service.example/docs/oauth#bad-verification-code" })],
    ["application/x-www-form-urlencoded", "error=bad_verification_code&error_description=The+code+passed+is+incorrect+or+expired.&error_uri=https%3A%2F%2Fservice.example%2Fdocs%2Foauth%23bad-verification-code"],
  ])("accepts a token error body (status 200) in %s", (mediaType, body) => {
    expect(validateResponse("createAccessToken", 200, body, { mediaType }).valid).toBe(true);
  });

  it("rejects a content type the operation does not produce", () => {
    const result = validateResponse("createAccessToken", 200, "{}", { mediaType: "text/plain" });
    expect(result.valid).toBe(false);
  });

  it("rejects an unknown operation", () => {
    const result = validateResponse("listEverything" as never, 200, "[]");
    expect(result).toEqual({ valid: false, errors: [{ path: "", message: 'unknown operation "listEverything"' }] });
  });
});

describe("validateRequest", () => {
  it("coerces query and header values as they arrive over HTTP", () => {
    const result = validateRequest("listPublicEvents", { query: { page: "3" }, headers: { "If-None-Match": '"abc"' } });
    expect(result.valid).toBe(true);
    if (result.valid) expect(result.value.query).toEqual({ page: 3 });
  });

  it.each([
    ["page beyond 10", { query: { page: "11" } }, "/query/page"],
    ["page 0", { query: { page: "0" } }, "/query/page"],
    ["page that is not a number", { query: { page: "abc" } }, "/query/page"],
    ["page in hexadecimal", { query: { page: "0x2" } }, "/query/page"],
    ["page with a sign", { query: { page: "+2" } }, "/query/page"],
    ["page with a space", { query: { page: " 2" } }, "/query/page"],
  ])("rejects %s", (_name, request, path) => {
    const result = validateRequest("listPublicEvents", request);
    expect(result.valid).toBe(false);
    if (!result.valid) expect(result.errors.map((e) => e.path)).toContain(path);
  });

  it("refuses a path number not written in decimal, and takes one with leading zeros", () => {
    const hex = validateRequest("listIssueEventsForIssue", { path: { owner: "octocat", repo: "hello-world", issue_number: "0x10" } });
    expect(hex.valid).toBe(false);
    if (!hex.valid) expect(hex.errors).toEqual([{ path: "/path/issue_number", message: "must be a decimal number" }]);
    const padded = validateRequest("listIssueEventsForIssue", { path: { owner: "octocat", repo: "hello-world", issue_number: "016" } });
    expect(padded.valid).toBe(true);
    if (padded.valid) expect(padded.value.path).toMatchObject({ issue_number: 16 });
  });

  it("requires the hook create body and checks it", () => {
    const path = { owner: "octo-org", repo: "hello-world" };
    expect(validateRequest("createRepoHook", { path }).valid).toBe(false);
    const missing = validateRequest("createRepoHook", { path, body: { name: "web" }, mediaType: "application/json" });
    expect(missing.valid).toBe(false);
    if (!missing.valid) expect(missing.errors.map((e) => e.path)).toContain("/body/config");
    const ok = validateRequest("createRepoHook", { path, body: JSON.stringify({ name: "web", config: { url: "https://example.com/hook" } }), mediaType: "application/json" });
    expect(ok.valid, JSON.stringify(ok)).toBe(true);
  });
});

describe("typed validators", () => {
  it("validateIssueEvent picks the form by the presence of issue, or by option", () => {
    const event = {
      id: 1,
      url: "https://api.service.example/repos/octo-org/hello-world/issues/events/1",
      actor: null,
      event: "closed",
      commit_id: null,
      created_at: "2026-11-01T10:00:00Z",
    };
    const absent = validateIssueEvent(event, { issue: "present" });
    expect(absent.valid).toBe(false);
    if (!absent.valid) expect(absent.errors.map((e) => e.path)).toContain("/issue");
  });

  it("unknown names fail with a message, never throw", () => {
    expect(validateWebhook("star", {})).toEqual({ valid: false, errors: [{ path: "", message: 'unknown webhook event "star"' }] });
    expect(validateSchema("Nope", {}).valid).toBe(false);
    expect(validateActivityEvent(null).valid).toBe(false);
  });

  it("knows every operation of the contract", () => {
    expect(operationIds).toContain("listPublicEvents");
    expect(operationIds).toContain("createAccessToken");
    expect(operationIds.length).toBeGreaterThan(40);
  });
});
