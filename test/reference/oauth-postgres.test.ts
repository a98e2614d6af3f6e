/**
 * The OAuth web flow on two reference-server instances sharing one real PostgreSQL
 * (TEST_DATABASE_URL, as in postgres.test.ts), as behind a load balancer: a session made on one
 * web host is honoured by the other, a code issued by one is exchanged at the other exactly once
 * (also when both are asked at the same moment), the token works on both API hosts, and a revoke
 * on one instance's review page stops the token on the other at once. Browsers do not isolate
 * cookies by port, so one cookie jar serves both hosts, as it would in Chromium.
 */
import { describe, expect, it } from "vitest";
import { adminUrl, describePostgres, useTwoInstances } from "./postgres-db.ts";
import type { RunningServer } from "../../reference/server.ts";
import { DEMO, type TestServer } from "./harness.ts";
import { APP_CREDENTIALS, authorizePath, Browser, exchange, formFields, PATHS, signIn } from "./oauth-web.ts";

/** Two views of one browser: the same cookies, requests to either web host. */
function browsers(a: RunningServer, b: RunningServer): [Browser, Browser] {
  const first = new Browser(a.urls.auth);
  const second = new Browser(b.urls.auth);
  (second as { cookies: Map<string, string> }).cookies = first.cookies;
  return [first, second];
}

function asTest(server: RunningServer): TestServer {
  return { server, api: server.urls.api, auth: server.urls.auth, violations: [] };
}

describePostgres("the OAuth web flow on two instances over PostgreSQL", () => {
  const pair = useTwoInstances("sc_oauth", { both: { deliveries: { enabled: false } } });

  /** Approves on B (the session was made on A); returns the code. */
  async function codeAcross(onB: Browser, scope: string, state: string): Promise<string> {
    const consent = await onB.get(authorizePath({ client_id: DEMO.app.clientId, scope, state }));
    expect(consent.status, "B shows the consent page to a session made on A").toBe(200);
    const res = await onB.post(PATHS.decision, { ...formFields(await consent.text(), PATHS.decision), decision: "authorize" });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!);
    expect(location.searchParams.get("state")).toBe(state);
    return location.searchParams.get("code")!;
  }

  it("signs in on one instance, approves on the other, exchanges on the first; the token works on both", async () => {
    const [onA, onB] = browsers(pair.a, pair.b);
    expect((await signIn(onA, DEMO.hubot.login, DEMO.hubot.password)).status).toBe(303);
    const code = await codeAcross(onB, "repo,user", "across-1");
    const res = await exchange(asTest(pair.a), { ...APP_CREDENTIALS, code }, "application/json");
    const body = (await res.json()) as { access_token: string; scope: string };
    expect(body.scope).toBe("repo,user");
    for (const server of [pair.a, pair.b]) {
      const api = await fetch(`${server.urls.api}/users/hubot/events`, { headers: { authorization: `token ${body.access_token}` } });
      expect(api.status).toBe(200);
      expect(api.headers.get("x-oauth-scopes")).toBe("repo, user");
      await api.arrayBuffer();
    }
    // The code is used up everywhere.
    const again = await exchange(asTest(pair.b), { ...APP_CREDENTIALS, code }, "application/json");
    expect(((await again.json()) as { error: string }).error).toBe("bad_verification_code");
  });

  it("of one code exchanged at both instances at once, exactly one exchange succeeds", async () => {
    const [onA, onB] = browsers(pair.a, pair.b);
    expect((await signIn(onA, DEMO.defunkt.login, DEMO.defunkt.password)).status).toBe(303);
    const code = await codeAcross(onB, "gist", "race");
    const answers = await Promise.all(
      [pair.a, pair.b, pair.a, pair.b].map(async (server) => (await (await exchange(asTest(server), { ...APP_CREDENTIALS, code }, "application/json")).json()) as Record<string, string>),
    );
    expect(answers.filter((x) => x.access_token)).toHaveLength(1);
    expect(answers.filter((x) => x.error === "bad_verification_code")).toHaveLength(3);
  });

  it("a revoke on one instance's review page stops the token on the other at once", async () => {
    const [onA, onB] = browsers(pair.a, pair.b);
    expect((await signIn(onA, DEMO.octocat.login, DEMO.octocat.password)).status).toBe(303);
    const code = await codeAcross(onB, "repo", "revoke");
    const token = ((await (await exchange(asTest(pair.a), { ...APP_CREDENTIALS, code }, "application/json")).json()) as { access_token: string }).access_token;
    const before = await fetch(`${pair.b.urls.api}/users/octocat/events`, { headers: { authorization: `token ${token}` } });
    expect(before.status).toBe(200);
    await before.arrayBuffer();

    const review = await onA.get(PATHS.review(DEMO.app.clientId));
    expect(review.status).toBe(200);
    const revoked = await onA.post(PATHS.revoke(DEMO.app.clientId), formFields(await review.text(), PATHS.revoke(DEMO.app.clientId)));
    expect(revoked.status).toBe(200);

    const after = await fetch(`${pair.b.urls.api}/users/octocat/events`, { headers: { authorization: `token ${token}` } });
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ message: "Bad credentials" });
  });
});
