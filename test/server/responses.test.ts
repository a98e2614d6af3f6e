/**
 * The response side of the generated server stubs, over real HTTP: the token endpoint's one result
 * written as a form, JSON or XML; HTML pages and redirects on the web host; 304 without a body;
 * and response validation turning a result that breaks the contract into a reported 500.
 */
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreateAccessTokenRequest, CreateAccessTokenResponse } from "../../generated/server/index.ts";
import { example, start, type Running } from "./harness.ts";

const token = { token_type: "bearer", scope: "repo,gist", access_token: "e72e16c7e42f292c6912e7710c838347ae178b4a" } as const;

/** Content negotiation as the contract describes it: form unless JSON or XML is asked for. */
function negotiate(accept: string | undefined): "application/json" | "application/xml" | "application/x-www-form-urlencoded" {
  if (accept?.includes("application/json")) return "application/json";
  if (accept?.includes("application/xml")) return "application/xml";
  return "application/x-www-form-urlencoded";
}

let auth: Running;
let api: Running;
let cached: Running;
const cachedEvent = example<never>("activity-event/valid-push");
// Not what JSON.stringify would write (indented), so the test can tell which bytes were sent.
const cachedText = JSON.stringify([cachedEvent], null, 1);
const tokenRequests: CreateAccessTokenRequest[] = [];

beforeAll(async () => {
  auth = await start(
    "auth",
    {
      createAccessToken: (request): CreateAccessTokenResponse => {
        tokenRequests.push(request);
        return { status: 200, mediaType: negotiate(request.raw.headers.accept), body: token };
      },
      authorize: ({ query }) =>
        query.state === "page"
          ? { status: 200, body: "<!DOCTYPE html><html><body>Authorize?</body></html>" }
          : { status: 302, headers: { Location: `https://app.example.com/cb?code=abc&state=${query.state ?? ""}` } },
    },
    {
      invalidRequest: {
        authorize: () => ({ status: 404, body: "<!DOCTYPE html><html><body>Not found</body></html>" }),
      },
    },
  );
  api = await start("api", {
    listRepoEvents: ({ headers }) =>
      headers["If-None-Match"] === '"v1"'
        ? { status: 304, headers: { ETag: '"v1"', "X-Poll-Interval": 60 } }
        : { status: 200, headers: { ETag: '"v1"', "X-Poll-Interval": 60, Link: '<http://x/?page=2>; rel="next"' }, body: [example("activity-event/valid-push")] },
    // Each of these breaks the contract in one way; the types are bypassed on purpose.
    listPublicEvents: () => ({ status: 200, headers: { ETag: '"v1"', "X-Poll-Interval": 60 }, body: [{ id: 1 }] }) as never,
    listOrgEvents: () => ({ status: 200, headers: { "X-Poll-Interval": 60 }, body: [] }) as never,
    listUserEvents: () => ({ status: 201, body: [] }) as never,
    listServiceHooks: () => "not a result" as never,
    // serializedBody that is not the body's JSON text: refused while validating.
    listNetworkEvents: () => ({ status: 200, headers: { ETag: '"v1"', "X-Poll-Interval": 60 }, body: [], serializedBody: "[1]" }),
  });
  // Production mode (no validation): a cache's pre-serialized bytes go out exactly as given.
  cached = await start("api", {
    listRepoEvents: () => ({ status: 200, headers: { ETag: '"v1"', "X-Poll-Interval": 60 }, body: [cachedEvent], serializedBody: cachedText }),
    listNetworkEvents: () => ({ status: 200, headers: { ETag: '"v1"', "X-Poll-Interval": 60 }, body: [cachedEvent], serializedBody: Buffer.from(cachedText) }),
    // The same contract breach as on the validating server above: here nothing checks it.
    listPublicEvents: () => ({ status: 200, headers: { ETag: '"v1"', "X-Poll-Interval": 60 }, body: [{ id: 1 }] }) as never,
  }, { validateResponses: false });
});
afterAll(async () => {
  await auth.close();
  await api.close();
  await cached.close();
});

const exchange = (body: string, headers: Record<string, string>) => fetch(`${auth.url}/login/oauth/access_token`, { method: "POST", body, headers });
const form = "client_id=abc&client_secret=s3cret&code=xyz";

describe("the token endpoint", () => {
  it("reads a form body with URLSearchParams", async () => {
    const response = await exchange(form + "&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb", { "content-type": "application/x-www-form-urlencoded" });
    expect(response.status).toBe(200);
    const request = tokenRequests.at(-1)!;
    expect(request.mediaType).toBe("application/x-www-form-urlencoded");
    expect(request.body).toEqual({ client_id: "abc", client_secret: "s3cret", code: "xyz", redirect_uri: "https://app.example.com/cb" });
  });

  it("refuses a form key sent twice (422 invalid), never keeping one of the values", async () => {
    const response = await exchange(form + "&client_id=other", { "content-type": "application/x-www-form-urlencoded" });
    expect(response.status).toBe(422);
    expect((await response.json()).errors).toEqual([expect.objectContaining({ field: "client_id", code: "invalid" })]);
  });

  it("answers a form without Accept", async () => {
    const response = await exchange(form, { "content-type": "application/x-www-form-urlencoded" });
    expect(response.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(await response.text()).toBe("token_type=bearer&scope=repo%2Cgist&access_token=e72e16c7e42f292c6912e7710c838347ae178b4a");
  });

  it("answers JSON for Accept: application/json", async () => {
    const response = await exchange(JSON.stringify({ client_id: "abc", client_secret: "s", code: "c" }), { "content-type": "application/json", accept: "application/json" });
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toEqual(token);
  });

  it("answers XML with the contract's root element for Accept: application/xml", async () => {
    const response = await exchange(form, { "content-type": "application/x-www-form-urlencoded", accept: "application/xml" });
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const text = await response.text();
    expect(text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><OAuth><token_type>bearer</token_type><scope>repo,gist</scope><access_token>e72e16c7e42f292c6912e7710c838347ae178b4a</access_token></OAuth>',
    );
    expect(new XMLParser().parse(text).OAuth).toEqual(token);
  });
});

describe("the web host", () => {
  it("sends a 302 with Location and no body", async () => {
    const response = await fetch(`${auth.url}/login/oauth/authorize?client_id=abc&state=s1`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://app.example.com/cb?code=abc&state=s1");
    expect(await response.text()).toBe("");
  });

  it("sends an HTML page as text/html", async () => {
    const response = await fetch(`${auth.url}/login/oauth/authorize?client_id=abc&state=page`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toMatch(/^<!DOCTYPE html>/);
  });

  it("lets invalidRequest answer a refused request the operation's own way", async () => {
    const response = await fetch(`${auth.url}/login/oauth/authorize`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });

  it("does not serve API operations", async () => {
    const response = await fetch(`${auth.url}/events`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ message: "Not Found" });
  });
});

describe("the API host", () => {
  it("sends a feed with its headers, and hook-supplied rate-limit headers", async () => {
    const response = await fetch(`${api.url}/repos/o/r/events`);
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe('"v1"');
    expect(response.headers.get("x-poll-interval")).toBe("60");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("59");
    expect(await response.json()).toHaveLength(1);
    expect(api.reported).toEqual([]);
  });

  it("answers HEAD like GET, without the body", async () => {
    const response = await fetch(`${api.url}/repos/o/r/events`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe('"v1"');
    expect(await response.text()).toBe("");
  });

  it("sends 304 with no body", async () => {
    const response = await fetch(`${api.url}/repos/o/r/events`, { headers: { "If-None-Match": '"v1"' } });
    expect(response.status).toBe(304);
    expect(response.headers.get("etag")).toBe('"v1"');
    expect(await response.text()).toBe("");
  });
});

describe("pre-serialized JSON (serializedBody)", () => {
  it("sends the given bytes as they are, as JSON", async () => {
    const response = await fetch(`${cached.url}/repos/o/r/events`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.text()).toBe(cachedText);
  });

  it("sends a Buffer's bytes the same way", async () => {
    const response = await fetch(`${cached.url}/networks/o/r/events`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.text()).toBe(cachedText);
  });
});

describe("response validation", () => {
  it("is optional: without validateResponses a body of the wrong shape goes out as the handler gave it", async () => {
    const response = await fetch(cached.url + "/events");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([{ id: 1 }]);
  });

  it.each([
    ["serializedBody that is not the body's JSON", "/networks/o/r/events", /listNetworkEvents 200: \/body serializedBody is not/],
    ["a body of the wrong shape", "/events", /listPublicEvents 200: \/body\/0/],
    ["a missing required header", "/orgs/o/events", /listOrgEvents 200: \/headers\/etag is required/],
    ["a status the contract does not list", "/users/u/events", /listUserEvents 201: \/status/],
    ["something that is not a result", "/hooks", /did not return/],
  ])("%s → 500 naming the problem, and reported", async (_name, path, pattern) => {
    const before = api.reported.length;
    const response = await fetch(api.url + path);
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body.message).toMatch(/^Response Validation Failed: /);
    expect(body.message).toMatch(pattern);
    expect(body.documentation_url).toBeTypeOf("string");
    expect(api.reported.length).toBe(before + 1);
  });
});
