/** Table-driven unit tests of the client's pure wire helpers: URLs, bodies, headers, links, auth, rate limits. */
import { describe, expect, it } from "vitest";
import {
  applyAuth,
  buildUrl,
  credentialKey,
  decodeBody,
  decodeHeaders,
  encodeBody,
  expandPath,
  isRateLimited,
  otpChallenge,
  parseLinkHeader,
  readRateLimit,
  responseKey,
  waitForReset,
  RequestError,
  type OperationMeta,
} from "../../runtime/client/index.ts";

const feed: OperationMeta = {
  method: "GET",
  path: "/repos/{owner}/{repo}/events",
  host: "api",
  pathParams: ["owner", "repo"],
  queryParams: ["page"],
  headerParams: ["If-None-Match"],
  requestMedia: [],
  responses: { "200": { media: ["application/json"], headers: { ETag: "string", "X-Poll-Interval": "number" } }, "304": { media: [], headers: {} } },
};
const token: OperationMeta = { ...feed, method: "POST", path: "/login/oauth/access_token", pathParams: [], requestMedia: ["application/json", "application/x-www-form-urlencoded"] };

describe("parseLinkHeader", () => {
  it.each([
    ["", {}],
    ['<https://a/e?page=2>; rel="next", <https://a/e?page=10>; rel="last"', { next: "https://a/e?page=2", last: "https://a/e?page=10" }],
    ['<https://a/e?page=1>; rel=first, <https://a/e?x=1,2>; rel="prev"', { first: "https://a/e?page=1", prev: "https://a/e?x=1,2" }],
    ['<https://a/e?page=3>; title="x, y"; rel="next last"', { next: "https://a/e?page=3", last: "https://a/e?page=3" }],
    ['<https://a/e?page=2>; REL="Next"', { next: "https://a/e?page=2" }],
    ["garbage", {}],
  ])("%j", (header, expected) => expect(parseLinkHeader(header)).toEqual(expected));
});

describe("expandPath and buildUrl", () => {
  it.each([
    [{ owner: "octocat", repo: "hello" }, "/repos/octocat/hello/events"],
    [{ owner: "a b", repo: "x/y" }, "/repos/a%20b/x%2Fy/events"],
    [{ owner: "..", repo: "?q" }, "/repos/../%3Fq/events"],
  ])("%j → %s", (values, path) => expect(expandPath("op", feed.path, values)).toBe(path));

  it("refuses a missing path parameter", () => {
    expect(() => expandPath("listRepoEvents", feed.path, { owner: "o" })).toThrow(RequestError);
    expect(() => expandPath("listRepoEvents", feed.path, { owner: "o", repo: "" })).toThrow(/"repo" is required/);
  });

  it("joins host prefix, path and query", () => {
    const url = buildUrl("http://h:1/api/", "op", feed, { path: { owner: "o", repo: "r" }, query: { page: 2, skip: undefined } });
    expect(url.href).toBe("http://h:1/api/repos/o/r/events?page=2");
  });
});

describe("encodeBody", () => {
  it.each([
    [{ body: { a: 1 } }, { body: '{"a":1}', contentType: "application/json" }],
    [{ body: { code: "x y", n: undefined }, mediaType: "application/x-www-form-urlencoded" }, { body: "code=x+y", contentType: "application/x-www-form-urlencoded" }],
    [{}, undefined],
  ])("%j", (parts, expected) => expect(encodeBody("op", token, parts)).toEqual(expected));

  it("refuses a media type the operation does not accept", () => {
    expect(() => encodeBody("op", token, { body: "x", mediaType: "text/plain" })).toThrow(RequestError);
    expect(() => encodeBody("op", feed, { body: {} })).toThrow(/no body/);
  });
});

describe("decodeBody", () => {
  it.each([
    ["application/json; charset=utf-8", '{"a":[1]}', { a: [1] }],
    ["application/vnd.service.v3+json", "[]", []],
    ["application/x-www-form-urlencoded", "access_token=e7&scope=repo%2Cgist&token_type=bearer", { access_token: "e7", scope: "repo,gist", token_type: "bearer" }],
    ["application/xml", "<?xml version='1.0'?><OAuth><token_type>bearer</token_type><scope>repo</scope><access_token>0123</access_token></OAuth>", { token_type: "bearer", scope: "repo", access_token: "0123" }],
    ["text/html", "<p>hi</p>", "<p>hi</p>"],
    ["application/json", "", undefined],
  ])("%s", (type, text, expected) => expect(decodeBody(type, text)).toEqual(expected));

  it("throws on broken JSON", () => expect(() => decodeBody("application/json", "{")).toThrow());
});

describe("decodeHeaders and responseKey", () => {
  it("keeps declared headers, spec spelling, numbers as numbers", () => {
    const headers = new Headers({ etag: '"abc"', "x-poll-interval": "60", other: "x" });
    expect(decodeHeaders(headers, { ETag: "string", "X-Poll-Interval": "number", Link: "string" })).toEqual({ ETag: '"abc"', "X-Poll-Interval": 60 });
  });
  it.each([
    [200, { "200": 1, "2XX": 1 }, "200"],
    [201, { "200": 1, "2XX": 1 }, "2XX"],
    [500, { "200": 1, default: 1 }, "default"],
    [418, { "200": 1 }, undefined],
  ])("%i in %j → %s", (status, responses, key) => expect(responseKey(status, responses)).toBe(key));
});

describe("rate limit headers", () => {
  const h = (o: Record<string, string>) => new Headers(o);
  it.each([
    [{ "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "4999", "x-ratelimit-reset": "1735693200" }, { limit: 5000, remaining: 4999, reset: 1735693200 }],
    [{ "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "4999" }, undefined],
    [{ "x-ratelimit-limit": "a", "x-ratelimit-remaining": "1", "x-ratelimit-reset": "1" }, undefined],
  ])("%j", (headers, state) => expect(readRateLimit(h(headers))).toEqual(state));
  it.each([
    [403, "0", true],
    [403, "1", false],
    [401, "0", false],
  ])("status %i remaining %s → limited %s", (status, remaining, limited) => expect(isRateLimited(status, h({ "x-ratelimit-remaining": remaining }))).toBe(limited));
  it("waits until the reset plus a second", () => {
    expect(waitForReset(h({ "x-ratelimit-reset": "100" }), 95_000)).toBe(6_000);
    expect(waitForReset(h({ "x-ratelimit-reset": "100" }), 200_000)).toBe(1_000);
    expect(waitForReset(h({}), 0)).toBeUndefined();
  });
});

describe("auth", () => {
  it.each([
    [{ type: "token", token: "t0k" } as const, "token t0k", null],
    [{ type: "query", token: "t0k" } as const, null, "t0k"],
    [{ type: "basic", username: "octocat", password: "p:w" } as const, `Basic ${Buffer.from("octocat:p:w").toString("base64")}`, null],
  ])("%j", (auth, authorization, query) => {
    const url = new URL("http://h/events");
    const headers = new Headers();
    applyAuth(auth, url, headers);
    expect(headers.get("authorization")).toBe(authorization);
    expect(url.searchParams.get("access_token")).toBe(query);
  });
  it.each([
    [401, "required; app", "app"],
    [401, "required;SMS", "sms"],
    [401, "required; email", undefined],
    [403, "required; app", undefined],
    [401, "", undefined],
  ])("otp challenge %i %j → %s", (status, header, method) => expect(otpChallenge(status, new Headers({ "x-service-otp": header }))).toBe(method));
  it("keys credentials apart without containing them", () => {
    const a = credentialKey({ type: "token", token: "secret-a" });
    expect(a).not.toContain("secret-a");
    expect(a).not.toBe(credentialKey({ type: "token", token: "secret-b" }));
    expect(credentialKey(null)).toBe("anonymous");
  });
});
