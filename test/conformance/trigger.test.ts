/**
 * Triggers: the profile's steps run in order with placeholders filled (built-ins, the profile's
 * triggerParams, the case's parameters, "{*}" for the whole set), and anything that does not
 * work — a non-2xx answer, a non-zero exit, a placeholder nobody gives — fails the case with
 * what happened; an event the profile has no trigger for skips it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Profile } from "../../conformance/core/profile.ts";
import { CaseFailure, SkipCase } from "../../conformance/core/failure.ts";
import { runTrigger, triggerParams } from "../../conformance/run/trigger.ts";
import { HttpClient } from "../../conformance/core/http.ts";
import { startFakeTarget, type FakeTarget } from "./fake-target.ts";

let target: FakeTarget;
beforeAll(async () => {
  target = await startFakeTarget((req, res) => {
    const status = req.url?.includes("/fail/") ? 422 : 201;
    // A target that says what it made: a repository in the organization, in its own envelope.
    if (req.url?.includes("/made/")) return void res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ repository: "octo-org/new-one", issue: 12, data: { full_name: "octo-org/other", number: "31", hook: { id: 9 } } }));
    if (req.url?.includes("/lies/")) return void res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ repository: "../../etc passwd", issue: -3, hook: 1e300 }));
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ message: status === 422 ? "no such branch" : "ok" }));
  });
});
afterAll(() => target?.close());

const base: Profile = {
  users: [{ login: "octo", token: "t" }],
  org: "octo-org",
  repos: { public: "octo/site", private: "octo/vault" },
  issue: 7,
};

const run = (profile: Profile, event: string, params?: Record<string, string>) => runTrigger(event, params, { profile, baseUrl: `${target.url}/api/` });

describe("what a trigger made (issue 40: triggers say what they made)", () => {
  it("is read from the answer's top-level keys by default, and at the step's pointers when it names them", async () => {
    const byKeys = await run({ ...base, triggers: { repository: [{ http: { method: "POST", url: "/made/repo" } }] } }, "repository", { name: "new-one" });
    expect(byKeys).toEqual({ repository: "octo-org/new-one", issue: 12 });
    const byPointers = await run({ ...base, triggers: { repository: [{ http: { method: "POST", url: "/made/repo", made: { repository: "/data/full_name", issue: "/data/number", hook: "/data/hook/id" } } }] } }, "repository");
    expect(byPointers).toEqual({ repository: "octo-org/other", issue: 31, hook: 9 });
  });

  it("takes only values of the right form from the target's text, and nothing from an answer that is no JSON object", async () => {
    expect(await run({ ...base, triggers: { repository: [{ http: { method: "POST", url: "/lies/repo" } }] } }, "repository")).toEqual({});
    expect(await run({ ...base, triggers: { push: [{ http: { method: "POST", url: "/plain" } }] } }, "push")).toEqual({});
    expect(await run({ ...base, triggers: { push: [{ command: ["node", "-e", "console.log(JSON.stringify({repository: 'octo/made-by-command'}))"] }] } }, "push")).toEqual({ repository: "octo/made-by-command" });
  });
});

describe("trigger steps", () => {
  it("sends each HTTP step in order with placeholders filled", async () => {
    target.requests.length = 0;
    const profile: Profile = {
      ...base,
      triggers: {
        issues: [
          { http: { method: "post", url: "/repos/{repo}/issues", headers: { Authorization: "token {login}-{org}" }, body: { title: "Issue {nonce}", labels: ["{event}"], n: 3 } } },
          { http: { method: "PATCH", url: "repos/{owner}/{name}/issues/{number}", body: "state={action}" } },
          { http: { method: "POST", url: `${target.url}/absolute/{private_repo}`, body: { params: "{*}" } } },
        ],
      },
      triggerParams: { issues: { number: "{issue}", action: "opened" } },
    };
    await run(profile, "issues", { action: "closed" });
    expect(target.requests.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /api/repos/octo/site/issues", "PATCH /api/repos/octo/site/issues/7", "POST /absolute/octo/vault"]);
    const [first, second, third] = target.requests;
    expect(first!.headers.authorization).toBe("token octo-octo-org");
    expect(first!.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(first!.body) as { title: string; labels: string[]; n: number };
    expect(body).toMatchObject({ labels: ["issues"], n: 3 });
    expect(body.title).toMatch(/^Issue [0-9a-f]{8}$/);
    expect(second!.body).toBe("state=closed");
    expect(second!.headers["content-type"]).toBe("text/plain;charset=UTF-8"); // a string body goes as it is
    // "{*}": the profile's defaults under the case's parameters, without the built-ins.
    expect(JSON.parse(third!.body)).toEqual({ params: { number: "7", action: "closed" } });
  });

  it("uses one nonce across the steps of one call, and a new one per call", async () => {
    target.requests.length = 0;
    const profile: Profile = { ...base, triggers: { repository: [{ http: { method: "POST", url: "/r/{nonce}" } }, { http: { method: "POST", url: "/r/{nonce}/public" } }] } };
    await run(profile, "repository");
    await run(profile, "repository");
    const nonces = target.requests.map((r) => r.url.split("/")[3]);
    expect(nonces[0]).toBe(nonces[1]);
    expect(nonces[2]).toBe(nonces[3]);
    expect(nonces[0]).not.toBe(nonces[2]);
  });

  it("a non-2xx answer fails the case with the status and the body", async () => {
    const profile: Profile = { ...base, triggers: { delete: [{ http: { method: "DELETE", url: "/fail/{repo}" } }] } };
    const error = (await run(profile, "delete").catch((e: unknown) => e)) as CaseFailure;
    expect(error).toBeInstanceOf(CaseFailure);
    expect(error.message).toBe(`trigger "delete": DELETE ${target.url}/api/fail/octo/site answered 422`);
    expect(error.detail).toEqual({ expected: "2xx", actual: '422 {"message":"no such branch"}' });
  });

  it("a placeholder nobody provides fails the case and names it", async () => {
    const profile: Profile = { ...base, triggers: { push: [{ http: { method: "POST", url: "/push/{ref}" } }] } };
    const error = (await run(profile, "push").catch((e: unknown) => e)) as CaseFailure;
    expect(error).toBeInstanceOf(CaseFailure);
    expect(error.message).toBe(`the profile's trigger for "push" uses {ref}, which neither the case nor triggerParams.push provides`);
    await expect(run(profile, "push", { ref: "main" })).resolves.toEqual({});
  });

  it("an event without a trigger skips the case", async () => {
    const error = await run({ ...base, triggers: {} }, "gollum").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkipCase);
    expect((error as SkipCase).message).toBe('profile has no trigger for "gollum"');
  });

  it("stops a command step when the case ends, instead of waiting out the command's own limit", async () => {
    const caseOver = new AbortController();
    const http = new HttpClient(target.url, target.url, fetch, { signal: caseOver.signal });
    const hangs: Profile = { ...base, triggers: { push: [{ command: [process.execPath, "-e", "setTimeout(() => {}, 60000)"] }] } };
    const running = runTrigger("push", undefined, { profile: hangs, baseUrl: target.url, http });
    setTimeout(() => caseOver.abort(), 200);
    // Without the case's signal the child runs for a minute (its own 60 s limit); the test's time limit catches that.
    await expect(running).rejects.toThrow(/trigger "push": command .* failed/);
  });

  it("runs command steps with filled arguments; a non-zero exit fails with its output", async () => {
    const ok: Profile = { ...base, triggers: { push: [{ command: [process.execPath, "-e", "if (process.argv[1] !== 'octo/site:main') process.exit(9)", "{repo}:{ref}"] }] } };
    await expect(run(ok, "push", { ref: "main" })).resolves.toEqual({});
    const bad: Profile = { ...base, triggers: { push: [{ command: [process.execPath, "-e", "console.error('remote rejected'); process.exit(3)"] }] } };
    const error = (await run(bad, "push").catch((e: unknown) => e)) as CaseFailure;
    expect(error).toBeInstanceOf(CaseFailure);
    expect(error.message).toBe(`trigger "push": command ${process.execPath} failed with exit code 3`);
    expect(error.detail).toEqual({ expected: "exit code 0", actual: "remote rejected" });
    const missing: Profile = { ...base, triggers: { push: [{ command: ["/nonexistent/push-tool"] }] } };
    await expect(run(missing, "push")).rejects.toThrow(/command \/nonexistent\/push-tool failed/);
  });

  it("parameters: built-ins, then triggerParams (which may use built-ins), then the case's", () => {
    const profile: Profile = { ...base, triggerParams: { create: { ref: "branch-{login}", repo: "other/repo" } } };
    const { all, spread } = triggerParams(profile, "create", { repo: "case/repo" });
    expect(all).toMatchObject({ login: "octo", owner: "octo", name: "site", org: "octo-org", issue: "7", private_repo: "octo/vault", event: "create", ref: "branch-octo", repo: "case/repo" });
    expect(spread).toEqual({ ref: "branch-octo", repo: "case/repo" });
  });
});
