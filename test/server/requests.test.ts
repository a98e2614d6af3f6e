/**
 * The request side of the generated server stubs, over real HTTP: typed, coerced values reach the
 * handler; everything the contract refuses is answered in the contract's error shape before any
 * handler runs (400, 404, 413, 415, 422), and the runtime's own 500/501 never leak details.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListRepoEventsRequest, CreateRepoHookRequest } from "../../generated/server/index.ts";
import { example, start, type Running } from "./harness.ts";

const DOCS = "https://developer.service.example/v3";
const feedHeaders = { ETag: '"abc"', "X-Poll-Interval": 60 };

let server: Running;
const pings: unknown[] = [];
const seen: { listRepoEvents: ListRepoEventsRequest[]; createRepoHook: CreateRepoHookRequest[] } = { listRepoEvents: [], createRepoHook: [] };

beforeAll(async () => {
  server = await start("api", {
    listRepoEvents: (request) => {
      seen.listRepoEvents.push(request);
      return { status: 200, headers: feedHeaders, body: [] };
    },
    createRepoHook: (request) => {
      seen.createRepoHook.push(request);
      return { status: 201, headers: { Location: "http://127.0.0.1/repos/o/r/hooks/1" }, body: example("hook/valid-repository-webhook") };
    },
    getRepoHook: () => ({ status: 200, body: example("hook/valid-repository-webhook") }),
    pingRepoHook: (request) => {
      pings.push(request.body);
      return { status: 204 };
    },
    listServiceHooks: () => {
      throw new Error("secret database password in /srv/app/db.ts");
    },
  }, { bodyLimit: 4096 });
});
afterAll(() => server.close());

async function call(path: string, init: RequestInit = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(server.url + path, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body, headers: response.headers };
}

const postJson = (path: string, body: string, contentType = "application/json") => call(path, { method: "POST", headers: { "content-type": contentType }, body });

describe("valid requests reach the handler with coerced, typed values", () => {
  it("path, query and declared headers", async () => {
    const { status, body } = await call("/repos/octo/hello/events?page=3&access_token=t", { headers: { "If-None-Match": '"x"', authorization: "token abc" } });
    expect(status).toBe(200);
    expect(body).toEqual([]);
    const request = seen.listRepoEvents.at(-1)!;
    expect(request.params).toEqual({ owner: "octo", repo: "hello" });
    expect(request.query).toEqual({ page: 3 });
    expect(typeof request.query.page).toBe("number");
    expect(request.headers).toEqual({ "If-None-Match": '"x"' });
    expect(request.raw.authorization).toBe("token abc");
    expect(request.raw.query).toMatchObject({ access_token: "t" });
    expect(request.raw.ip).toBe("127.0.0.1");
  });

  it("a JSON body, with its media type", async () => {
    const { status } = await postJson("/repos/octo/hello/hooks", JSON.stringify(example("hook-create-request/valid-webhook")));
    expect(status).toBe(201);
    const request = seen.createRepoHook.at(-1)!;
    expect(request.mediaType).toBe("application/json");
    expect(request.body.config.url).toBe("https://ci.example.com/service-webhook");
  });

  it("a body without Content-Type is read as the operation's JSON body", async () => {
    const { status } = await call("/repos/octo/hello/hooks", { method: "POST", body: new Blob([JSON.stringify(example("hook-create-request/valid-webhook"))]) });
    expect(status).toBe(201);
  });
});

describe("refused requests, in the error shape", () => {
  it.each([
    ["page above 10", "/repos/o/r/events?page=11", "page", "invalid"],
    ["page not a number", "/repos/o/r/events?page=abc", "page", "invalid"],
    ["page given twice", "/repos/o/r/events?page=1&page=2", "page", "invalid"],
    ["page 0", "/repos/o/r/events?page=0", "page", "invalid"],
  ])("%s → 422 on field %s", async (_name, path, field, code) => {
    const { status, body } = await call(path);
    expect(status).toBe(422);
    expect(body).toMatchObject({ message: "Validation Failed", documentation_url: DOCS });
    expect(body.errors).toEqual([expect.objectContaining({ field, code, resource: expect.any(String) })]);
  });

  it("a missing required body field → 422 missing_field with its dotted path", async () => {
    const { status, body } = await postJson("/repos/o/r/hooks", JSON.stringify(example("hook-create-request/invalid-webhook-config-missing-url")));
    expect(status).toBe(422);
    expect(body.errors).toContainEqual(expect.objectContaining({ resource: "Hook", field: "config.url", code: "missing_field" }));
  });

  it("a missing body → 422 missing_field body", async () => {
    const { status, body } = await call("/repos/o/r/hooks", { method: "POST" });
    expect(status).toBe(422);
    expect(body.errors).toEqual([expect.objectContaining({ field: "body", code: "missing_field" })]);
  });

  it.each([
    ["malformed JSON", "{\"name\": \"web\",", "application/json"],
    ["prototype poisoning", '{"__proto__": {"admin": true}, "name": "web", "config": {"url": "http://x"}}', "application/json"],
    ["JSON with a charset parameter", "{oops", "application/json; charset=utf-8"],
  ])("%s → 400 Problems parsing JSON", async (_name, text, type) => {
    const { status, body } = await postJson("/repos/o/r/hooks", text, type);
    expect(status).toBe(400);
    expect(body).toEqual({ message: "Problems parsing JSON", documentation_url: DOCS });
  });

  it("a media type the operation does not accept → 415", async () => {
    const { status, body } = await postJson("/repos/o/r/hooks", "name=web", "application/x-www-form-urlencoded");
    expect(status).toBe(415);
    expect(body.message).toMatch(/^Unsupported Media Type/);
    expect(body.documentation_url).toBe(DOCS);
  });

  it("a body over bodyLimit → 413", async () => {
    const { status, body } = await postJson("/repos/o/r/hooks", JSON.stringify({ name: "web", config: { url: "x".repeat(5000) } }));
    expect(status).toBe(413);
    expect(body).toEqual({ message: "Payload Too Large", documentation_url: DOCS });
  });

  it("an operation that takes no body ignores one, whatever its Content-Type (also a malformed one)", async () => {
    for (const type of ["text", "a/b/c", "", "application/json", "text/plain"]) {
      const before = pings.length;
      const { status } = await postJson("/repos/o/r/hooks/1/pings", "{nope", type);
      expect(status, type).toBe(204);
      expect(pings.slice(before), type).toEqual([undefined]);
    }
  });

  it("…but not past bodyLimit → 413, without calling the handler", async () => {
    const before = pings.length;
    const { status, body } = await postJson("/repos/o/r/hooks/1/pings", "x".repeat(5000), "text");
    expect(status).toBe(413);
    expect(body).toEqual({ message: "Payload Too Large", documentation_url: DOCS });
    expect(pings.length).toBe(before);
  });

  it("a NUL in a declared query parameter → 422; in an undeclared one it is ignored like the parameter", async () => {
    expect((await call("/repos/o/r/events?page=%00")).status).toBe(422);
    const { status } = await call("/repos/o/r/events?x=%00&access_token=%00");
    expect(status).toBe(200);
  });

  it("a path parameter the contract does not allow → 404", async () => {
    const { status, body } = await call("/repos/o/r/hooks/abc");
    expect(status).toBe(404);
    expect(body).toEqual({ message: "Not Found", documentation_url: DOCS });
  });

  it.each([
    ["an unknown path", "GET", "/nope"],
    ["a known path with a method it does not have", "DELETE", "/repos/o/r/events"],
    ["an auth-host operation on the API host", "GET", "/login/oauth/authorize?client_id=x"],
  ])("%s → 404", async (_name, method, path) => {
    const { status, body } = await call(path, { method });
    expect(status).toBe(404);
    expect(body).toEqual({ message: "Not Found", documentation_url: DOCS });
  });

  it("an operation without a handler → 501 naming it", async () => {
    const { status, body } = await call("/events");
    expect(status).toBe(501);
    expect(body).toEqual({ message: "Not Implemented: listPublicEvents", documentation_url: DOCS });
  });

  it("a handler that throws → 500 without any detail, reported to onHandlerError", async () => {
    const before = server.handlerErrors.length;
    const { status, body, headers } = await call("/hooks");
    expect(status).toBe(500);
    expect(body).toEqual({ message: "Internal Server Error", documentation_url: DOCS });
    expect(JSON.stringify(body)).not.toMatch(/password|\/srv|at /);
    expect(headers.get("content-type")).toMatch(/^application\/json/);
    expect(server.handlerErrors.length).toBe(before + 1);
  });
});

describe("registration", () => {
  it("refuses a handler for an operation of the other host, or an unknown one", async () => {
    await expect(start("api", { authorize: () => ({ status: 302, headers: { Location: "http://x" } }) })).rejects.toThrow(/served by the auth host/);
    await expect(start("api", { nope: () => ({ status: 200 }) } as never)).rejects.toThrow(/no operation "nope"/);
  });
});
