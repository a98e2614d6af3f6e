/**
 * Unit tests of the hand-written server runtime: validator errors → 422 items, body decoding by
 * media type, and response serialization. Table-driven; the HTTP behaviour is covered by
 * requests.test.ts and responses.test.ts.
 */
import { describe, expect, it } from "vitest";
import { decodeBody } from "../../runtime/server/body.ts";
import { requestValidationFailed, validationItem } from "../../runtime/server/errors.ts";
import { chooseMediaType, serialize } from "../../runtime/server/serialize.ts";
import type { RouteSpec } from "../../runtime/server/types.ts";

const route: RouteSpec = {
  operationId: "createRepoHook",
  method: "POST",
  path: "/repos/{owner}/{repo}/hooks",
  url: "/repos/:owner/:repo/hooks",
  host: "api",
  resource: "Hook",
  security: ["oauth2", "token"],
  acceptedScopes: ["admin:repo_hook", "repo", "write:repo_hook"],
  query: ["page"],
  headers: [["x-service-otp", "X-Service-OTP"]],
  body: { required: true, mediaTypes: ["application/json"] },
  responses: {},
};

describe("validationItem", () => {
  it.each([
    ["/query/page", "must be <= 10", "page", "invalid"],
    ["/body/config/url", "is required", "config.url", "missing_field"],
    ["/body/events/1", "must be equal to one of the allowed values", "events[1]", "invalid"],
    ["/body/a~1b/c~0d", "must be string", "a/b.c~d", "invalid"],
    ["/headers/x-service-otp", "must NOT have fewer than 1 characters", "X-Service-OTP", "invalid"],
    ["/body", "createRepoHook: a request body is required", "body", "missing_field"],
    ["/body", "must be object", "body", "invalid"],
  ])("%s %s → %s %s", (path, message, field, code) => {
    expect(validationItem(route, { path, message })).toEqual({ resource: "Hook", field, code, message: `${field} ${message}` });
  });

  it("drops repeated field/code pairs", () => {
    const body = requestValidationFailed(route, [{ path: "/body/name", message: "must be string" }, { path: "/body/name", message: "must match pattern" }], "https://docs");
    expect(body).toEqual({ message: "Validation Failed", errors: [expect.objectContaining({ field: "name", code: "invalid" })], documentation_url: "https://docs" });
  });
});

describe("decodeBody", () => {
  const json = ["application/json"];
  const both = ["application/json", "application/x-www-form-urlencoded"];
  it.each([
    ["no body", undefined, "application/json", json, { ok: true, value: undefined }],
    ["empty body", Buffer.alloc(0), undefined, json, { ok: true, value: undefined }],
    ["JSON", Buffer.from('{"a":1}'), "application/json; charset=utf-8", json, { ok: true, mediaType: "application/json", value: { a: 1 } }],
    ["JSON without Content-Type", Buffer.from("[1]"), undefined, json, { ok: true, mediaType: "application/json", value: [1] }],
    ["vendor JSON", Buffer.from("{}"), "application/vnd.service.v3+json", json, { ok: true, mediaType: "application/json", value: {} }],
    ["malformed JSON", Buffer.from("{"), "application/json", json, { ok: false, status: 400, message: "Problems parsing JSON" }],
    ["JSON that is not UTF-8", Buffer.from([0x22, 0xff, 0x22]), "application/json", json, { ok: false, status: 400 }],
    ["nested __proto__", Buffer.from('{"a":{"__proto__":{}}}'), "application/json", json, { ok: false, status: 400 }],
    ["form", Buffer.from("a=1&b=x+y&c=%2C"), "application/x-www-form-urlencoded", both, { ok: true, value: { a: "1", b: "x y", c: "," } }],
    ["form key twice", Buffer.from("a=1&a=2"), "application/x-www-form-urlencoded", both, { ok: true, value: { a: ["1", "2"] } }],
    ["form where only JSON is accepted", Buffer.from("a=1"), "application/x-www-form-urlencoded", json, { ok: false, status: 415 }],
    ["text/plain", Buffer.from("hi"), "text/plain", both, { ok: false, status: 415 }],
  ])("%s", (_name, raw, contentType, accepted, expected) => {
    expect(decodeBody(raw, contentType, accepted)).toMatchObject(expected);
  });

  it("never gives a parsed form body a prototype to pollute", () => {
    const decoded = decodeBody(Buffer.from("__proto__=x&constructor=y"), "application/x-www-form-urlencoded", ["application/x-www-form-urlencoded"]);
    expect(decoded).toMatchObject({ ok: true });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe("serialize", () => {
  const xmlSpec = { mediaTypes: ["application/xml"], xmlRoot: "OAuth" };
  it.each([
    ["JSON", { a: [1] }, "application/json", undefined, "application/json; charset=utf-8", '{"a":[1]}'],
    ["form, scalars and arrays", { a: "x y", n: 2, l: ["1", "2"], skip: undefined }, "application/x-www-form-urlencoded", undefined, "application/x-www-form-urlencoded", "a=x+y&n=2&l=1&l=2"],
    ["XML, escaped", { error: "a<b&c" }, "application/xml", xmlSpec, "application/xml; charset=utf-8", '<?xml version="1.0" encoding="UTF-8"?><OAuth><error>a&lt;b&amp;c</error></OAuth>'],
    ["HTML", "<p>hi</p>", "text/html", undefined, "text/html; charset=utf-8", "<p>hi</p>"],
  ])("%s", (_name, body, mediaType, spec, contentType, payload) => {
    expect(serialize(body, mediaType, spec)).toEqual({ contentType, payload });
  });

  it.each([
    ["a nested object as a form", { a: { b: 1 } }, "application/x-www-form-urlencoded"],
    ["an array as XML", [1], "application/xml"],
    ["an object as HTML", { a: 1 }, "text/html"],
  ])("refuses %s", (_name, body, mediaType) => {
    expect(() => serialize(body, mediaType, undefined)).toThrow(TypeError);
  });

  it.each([
    [undefined, undefined, undefined],
    [{ mediaTypes: ["application/xml", "application/json"] }, undefined, "application/json"],
    [{ mediaTypes: ["text/html"] }, undefined, "text/html"],
    [{ mediaTypes: ["application/json", "application/xml"] }, "application/xml", "application/xml"],
  ])("chooseMediaType(%j, %s) → %s", (spec, requested, expected) => {
    expect(chooseMediaType(spec, requested)).toBe(expected);
  });
});
