/**
 * Issue 41 against the reference over HTTP: an anonymous `POST /repos/octocat/hello-world/hooks`
 * whose `events` holds 20,000 zeros (60 KB) held the server for 11.8 s, every other request
 * waiting, and was answered with a 422 listing 20,000 errors. Now it is refused with 401 before
 * its body is read; the same body with a token is a 422 of at most 20 errors, and stores nothing.
 */
import { describe, expect, it } from "vitest";
import { REPO_HOOKS, useHookApi } from "./hooks-fixtures.ts";

const api = useHookApi();
const { t, call } = api;
const hostile = { name: "web", config: { url: "http://127.0.0.1:9/hostile" }, events: Array(20_000).fill(0) };

async function hookCount(): Promise<number> {
  return (await t.server.db.query<{ n: number }>("select count(*)::int as n from hooks"))[0]!.n;
}

describe("a hook body of 20,000 wrong events", () => {
  it("anonymous: 401 Requires authentication (was a 422 listing 20,000 errors)", async () => {
    const reply = await call("POST", REPO_HOOKS, null, hostile);
    expect(reply.status, reply.text.slice(0, 200)).toBe(401);
    expect(reply.body.message).toBe("Requires authentication");
    expect(reply.headers.get("x-ratelimit-limit")).not.toBeNull();
  });

  it("with a token: 422 Validation Failed listing at most 20 errors, nothing stored", async () => {
    const before = await hookCount();
    const reply = await call("POST", REPO_HOOKS, api.token, hostile);
    expect(reply.status, reply.text.slice(0, 200)).toBe(422);
    expect(reply.body.message).toBe("Validation Failed");
    expect(reply.body.errors.length).toBeGreaterThan(0);
    expect(reply.body.errors.length).toBeLessThanOrEqual(20);
    expect(reply.body.errors[0]).toMatchObject({ resource: "Hook", field: "events[0]", code: "invalid" });
    expect(await hookCount()).toBe(before);
  });
});
