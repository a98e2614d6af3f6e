/**
 * `--reference` in process: the reference server on in-memory PGlite with the profile built for
 * it. The profile matches its schema; every trigger it lists makes its event happen (and the ones
 * meant to repeat do); and a run of cases written here — through the authorize page with the form
 * driver, approve and deny, and a webhook delivered to the built-in receiver after a triggered
 * push, signature checked over the raw bytes — passes end to end.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkProfile } from "../../conformance/run/load-profile.ts";
import { runTrigger } from "../../conformance/run/trigger.ts";
import { runReference, startReferenceTarget, type ReferenceTarget } from "../../conformance/reference-profile.ts";
import { AUTHORIZE_CASES, WEBHOOK_CASE } from "./reference-cases.ts";
import { ceiling } from "../ceilings.ts";

describe("the reference target and its profile", () => {
  let target: ReferenceTarget;
  beforeAll(async () => {
    target = await startReferenceTarget();
  }, ceiling(60_000));
  afterAll(() => target?.close());

  const trigger = (event: string, params?: Record<string, string>) => runTrigger(event, params, { profile: target.profile, baseUrl: target.server.urls.api });

  it("matches spec/conformance-profile.schema.json and gives users[1] no access to the private repository", async () => {
    expect(() => checkProfile(JSON.parse(JSON.stringify(target.profile)))).not.toThrow();
    const [main, second] = target.profile.users;
    expect([main!.login, second!.login]).toEqual(["octocat", "defunkt"]);
    const get = (token: string) => fetch(`${target.server.urls.api}/repos/octocat/secret-plans/events`, { headers: { authorization: `token ${token}` } });
    expect((await get(main!.token!)).status).toBe(200);
    expect((await get(second!.token!)).status).toBe(404);
    const scopes = (await get(main!.token!)).headers.get("x-oauth-scopes");
    expect(scopes?.split(", ").sort()).toEqual(["admin:org_hook", "admin:repo_hook", "repo", "user"]);
  });

  it("has a working trigger for every event it lists; the repeatable ones work twice", async () => {
    const events = Object.keys(target.profile.triggers!);
    expect(events).toEqual(expect.arrayContaining(["push", "issues", "issue_comment", "create", "delete", "fork", "watch", "release", "member", "public", "membership", "team_add"]));
    // A pull request first: the triggers that act on one take its number.
    const res = await fetch(`${target.server.urls.api}/_admin/simulate/pull_request`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-admin-token": target.adminToken },
      body: JSON.stringify({ repo: "octocat/hello-world", actor: "octocat" }),
    });
    expect(res.status).toBe(201);
    const pr = String(((await res.json()) as { events: { payload: { number: number } }[] }).events[0]!.payload.number);
    const needsPull: Record<string, Record<string, string>> = { pull_request_review_comment: { number: pr }, head_ref_deleted: { number: pr }, head_ref_restored: { number: pr } };
    // Order matters where one event undoes another.
    const ordered = [...events.filter((e) => !["demilestoned", "unlocked", "head_ref_restored"].includes(e)), "demilestoned", "unlocked", "head_ref_restored"].filter((e) => events.includes(e));
    const failures: string[] = [];
    for (const event of ordered) await trigger(event, needsPull[event]).catch((e: Error) => failures.push(`${event}: ${e.message}`));
    expect(failures).toEqual([]);
    const repeatable = ["push", "create", "delete", "fork", "issues", "issue_comment", "pull_request", "release", "public", "repository", "team_add", "membership", "deployment_status", "renamed", "status", "gollum"];
    for (const event of repeatable) await trigger(event).catch((e: Error) => failures.push(`${event} again: ${e.message}`));
    expect(failures).toEqual([]);
  }, ceiling(60_000));
});

describe("runReference", () => {
  it("runs cases against the reference with its profile: form driver, triggers and receiver", async () => {
    let urls: { api: string; auth: string } | undefined;
    const summary = await runReference({ cases: [...AUTHORIZE_CASES, WEBHOOK_CASE], onStarted: (t) => (urls = { ...t.server.urls }) });
    expect(summary.results.map((r) => [r.id, r.status, r.failure?.message])).toEqual([
      ["REF-AUTHORIZE-001", "passed", undefined],
      ["REF-AUTHORIZE-002", "passed", undefined],
      ["REF-WEBHOOK-001", "passed", undefined],
    ]);
    expect(summary.target).toEqual({ baseUrl: urls!.api, authUrl: urls!.auth });
    // The server is stopped afterwards.
    await expect(fetch(`${urls!.api}/events`)).rejects.toThrow();
  }, ceiling(60_000));
});
