/**
 * Issue 41: the generated stubs refuse a request that carries no credential, on an operation
 * that cannot be called anonymously, with 401 before its body is read or validated; and a 422
 * lists at most the validators' bound of errors. Before, an anonymous POST whose `events` held
 * 20,000 zeros was validated (quadratic, seconds of a blocked server) and answered a 422 listing
 * 20,000 errors; the handler's 401 came only after. Over real HTTP, on the generated routes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { start, type Running } from "./harness.ts";
import { DEFAULT_MAX_ERRORS } from "../../generated/validators/index.js";

let server: Running;
let calls = 0;
const HOOKS = "/repos/octocat/hello-world/hooks";
const hostile = JSON.stringify({ name: "web", config: { url: "https://example.com/hook" }, events: Array(20_000).fill(0) });

beforeAll(async () => {
  server = await start("api", {
    createRepoHook: () => {
      calls++;
      return { status: 401, body: { message: "Bad credentials", documentation_url: "https://developer.service.example/v3" } };
    },
  }, { refuseAnonymous: undefined });
});
afterAll(() => server.close());

async function post(body: string, headers: Record<string, string> = {}, query = ""): Promise<{ status: number; body: { message: string; errors?: { field: string }[] } }> {
  const res = await fetch(`${server.url}${HOOKS}${query}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  return { status: res.status, body: (await res.json()) as { message: string; errors?: { field: string }[] } };
}

describe("credentials before the body", () => {
  it("an anonymous POST with 20,000 bad events: 401, its body never validated nor handled (was a 422 of 20,000 errors)", async () => {
    const before = calls;
    const reply = await post(hostile);
    expect(reply).toEqual({ status: 401, body: { message: "Requires authentication", documentation_url: "https://developer.service.example/v3" } });
    expect(calls).toBe(before);
  });

  it("an empty Authorization header is no credential", async () => {
    expect((await post(hostile, { authorization: "" })).status).toBe(401);
  });

  it.each([
    ["an Authorization header", { authorization: "token abc" }, ""],
    ["an access_token query parameter", {}, "?access_token=abc"],
  ])("with %s the body is validated: a 422 listing at most %s errors", async (_name, headers, query) => {
    const reply = await post(hostile, headers, query);
    expect(reply.status).toBe(422);
    expect(reply.body.message).toBe("Validation Failed");
    expect(reply.body.errors!.length).toBeGreaterThan(0);
    expect(reply.body.errors!.length).toBeLessThanOrEqual(DEFAULT_MAX_ERRORS);
    expect(reply.body.errors![0]!.field).toBe("events[0]");
  });

  it("with a credential and a valid body, the handler decides (here: its own 401)", async () => {
    const before = calls;
    const reply = await post(JSON.stringify({ name: "web", config: { url: "https://example.com/hook" } }), { authorization: "token abc" });
    expect(reply.status).toBe(401);
    expect(calls).toBe(before + 1);
  });

  it("an operation open to anonymous callers is not refused", async () => {
    const res = await fetch(`${server.url}/events`);
    expect(res.status).not.toBe(401);
  });
});
