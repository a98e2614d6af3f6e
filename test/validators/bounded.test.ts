/**
 * The validators' work is bounded by what they read, whatever it holds (issue 41): a failed value
 * lists at most `maxErrors` problems (20 by default), a long array of wrong items is judged by
 * validators that stop at its first error, and a value nested deeper than the stack is a failed
 * result, not a RangeError. Before, every validator ran with `allErrors`, listed every problem
 * (200,000 zeros: 200,000 errors, found in time growing with the square of their number) and a
 * million-deep value threw.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_ERRORS, validateRequest, validateResponse, validateSchema, validateWebhook } from "../../generated/validators/index.js";

const hookPath = { owner: "octocat", repo: "hello-world" };

function createHookBody(events: unknown[]): string {
  return JSON.stringify({ name: "web", config: { url: "https://example.com/hook" }, events });
}

describe("errors listed", () => {
  it("a small failed value is explained in full, up to the default of 20", () => {
    expect(DEFAULT_MAX_ERRORS).toBe(20);
    const result = validateResponse("listPublicEvents", 200, JSON.stringify(Array(500).fill(0)), { mediaType: "application/json" });
    expect(result.valid).toBe(false);
    if (!result.valid) expect(result.errors.map((e) => e.path)).toEqual(Array.from({ length: 20 }, (_, i) => `/body/${i}`));
  });

  it("maxErrors sets the bound, on every entry point", () => {
    const body = createHookBody(Array(50).fill(0));
    const request = validateRequest("createRepoHook", { path: hookPath, body, mediaType: "application/json" }, { maxErrors: 3 });
    expect(request).toEqual({
      valid: false,
      errors: [
        { path: "/body/events/0", message: "must be string" },
        { path: "/body/events/0", message: "must be equal to one of the allowed values" },
        { path: "/body/events/1", message: "must be string" },
      ],
    });
    const response = validateResponse("listPublicEvents", 200, JSON.stringify(Array(50).fill(0)), { mediaType: "application/json", maxErrors: 1 });
    expect(response).toEqual({ valid: false, errors: [{ path: "/body/0", message: "must be object" }] });
    const schema = validateSchema("Hook", {}, { maxErrors: 2 });
    expect(schema.valid === false && schema.errors.length).toBe(2);
    const webhook = validateWebhook("push", {}, { maxErrors: 4 });
    expect(webhook.valid === false && webhook.errors.length).toBe(4);
    // Not a positive integer: the default.
    const bad = validateSchema("Hook", { events: Array(100).fill(0) }, { maxErrors: -1 });
    expect(bad.valid === false && bad.errors.length).toBe(DEFAULT_MAX_ERRORS);
  });

  it("200,000 wrong items where objects are expected: one error, the first (was 200,000 errors, past 90 s)", () => {
    const result = validateResponse("listPublicEvents", 200, JSON.stringify(Array(200_000).fill(0)), { mediaType: "application/json" });
    expect(result).toEqual({ valid: false, errors: [{ path: "/body/0", message: "must be object" }] });
  });

  it("200,000 wrong hook events in a request body: a short list (was 400,001 errors)", () => {
    const result = validateRequest("createRepoHook", { path: hookPath, body: createHookBody(Array(200_000).fill(0)), mediaType: "application/json" });
    expect(result.valid).toBe(false);
    if (!result.valid) {
      expect(result.errors.length).toBeGreaterThan(0);
      expect(result.errors.length).toBeLessThanOrEqual(DEFAULT_MAX_ERRORS);
      expect(result.errors[0]!.path).toMatch(/^\/body\/events\/0$/);
    }
  });
});

describe("depth", () => {
  it("a value nested a million deep is a failed result with a one-line message, not a RangeError", () => {
    const deep: unknown = JSON.parse("[".repeat(1_000_000) + "]".repeat(1_000_000));
    const result = validateSchema("Hook", { events: [deep, deep] });
    expect(result.valid).toBe(false);
    const webhook = validateWebhook("push", deep);
    expect(webhook).toEqual({ valid: false, errors: [{ path: "", message: "must be object" }] });
  });
});
