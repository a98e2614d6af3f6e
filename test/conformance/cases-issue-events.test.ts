/**
 * The issue event cases (conformance/cases/issue-events) against the reference server, each kind
 * made through the admin simulate endpoint as the reference profile does: every case passes.
 * Then the proof that the cases can fail: fake API hosts that put `issue` into the per-issue
 * list, leave it out of the single event, or put a label on a closed event must fail the cases
 * written for them.
 */
import { describe, expect, it } from "vitest";
import { CASES } from "../../conformance/cases/issue-events/index.ts";
import { explain, runCase, useConformanceTarget, type HarnessResult, type Target } from "./case-harness.ts";
import { errorReply, rateHeaders, startFake } from "./fake-targets.ts";

const target = useConformanceTarget();

describe("issue event cases: the table", () => {
  it("has unique, well-formed IDs, one-line titles and seed sections", () => {
    const ids = CASES.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of CASES) {
      expect(c.id).toMatch(/^ISSUE-EVENTS-[A-Z]+-\d{3}$/);
      expect(c.area).toBe("issue-events");
      expect(c.title).not.toMatch(/\n/);
      expect(c.seed.length).toBeGreaterThan(0);
    }
  });
});

describe("issue event cases against the reference server", () => {
  for (const c of CASES) {
    it(`${c.id} ${c.title}`, async () => {
      const result = await target.run(c);
      expect(result.status, explain(result)).toBe("passed");
    });
  }
});

type Event = Record<string, unknown> & { id: number; issue?: { number: number } };

/** The reference's own issue events (valid by construction), served by a fake with `defect` applied. */
async function againstFake(defect: { perIssue?: (e: Event) => Event; single?: (e: Event) => Event; unknownId?: "200" }, ids: string[]): Promise<Record<string, HarnessResult>> {
  const headers = { authorization: `token ${target.target.profile.users[0]!.token}` };
  const all = (await (await fetch(`${target.t.api}/repos/octocat/hello-world/issues/events`, { headers })).json()) as Event[];
  const ofIssue = all.filter((e) => e.issue?.number === 1).map(({ issue: _issue, ...rest }) => rest as Event);
  const json = (body: unknown) => ({ status: 200, headers: { "content-type": "application/json", ...rateHeaders(4999) }, body: JSON.stringify(body) });
  const api = await startFake((req) => {
    const path = req.url.pathname;
    if (path === "/repos/octocat/hello-world/issues/1/events") return json(ofIssue.map(defect.perIssue ?? ((e) => e)));
    if (path === "/repos/octocat/hello-world/issues/events") return json(all);
    const one = /^\/repos\/octocat\/hello-world\/issues\/events\/(\d+)$/.exec(path);
    if (one) {
      const found = all.find((e) => e.id === Number(one[1])) ?? (defect.unknownId ? all[0] : undefined);
      return found ? json((defect.single ?? ((e) => e))(found)) : errorReply(404, "Not Found");
    }
    return errorReply(404, "Not Found");
  });
  try {
    const fakeTarget: Target = { baseUrl: api.url, authUrl: api.url, profile: { users: [{ login: "octocat" }], repos: { public: "octocat/hello-world" }, issue: 1 } };
    const out: Record<string, HarnessResult> = {};
    for (const id of ids) out[id] = await runCase(CASES.find((c) => c.id === id)!, fakeTarget);
    return out;
  } finally {
    await api.close();
  }
}

describe("issue event cases catch defects (fake API hosts serving the reference's events)", () => {
  const IDS = ["ISSUE-EVENTS-LIST-001", "ISSUE-EVENTS-LIST-002", "ISSUE-EVENTS-GET-001", "ISSUE-EVENTS-GET-002"];
  const statuses = (r: Record<string, HarnessResult>) => Object.fromEntries(Object.entries(r).map(([id, x]) => [id, x.status]));

  it("served unchanged, the list cases pass (the fake is sound)", async () => {
    const results = await againstFake({}, IDS);
    expect(statuses(results), JSON.stringify(results, null, 1)).toEqual(Object.fromEntries(IDS.map((id) => [id, "passed"])));
  });

  it("issue inside the per-issue list fails ISSUE-EVENTS-LIST-001", async () => {
    const results = await againstFake({ perIssue: (e) => ({ ...e, issue: { number: 1 } }) }, ["ISSUE-EVENTS-LIST-001"]);
    expect(results["ISSUE-EVENTS-LIST-001"]!.status).toBe("failed");
    expect(results["ISSUE-EVENTS-LIST-001"]!.failure!.pointer).toMatch(/^\/body\/0\/issue/);
  });

  it("a label on an event of another kind fails ISSUE-EVENTS-LIST-001", async () => {
    const results = await againstFake({ perIssue: (e) => ({ ...e, label: { name: "bug", color: "ff0000" } }) }, ["ISSUE-EVENTS-LIST-001"]);
    expect(results["ISSUE-EVENTS-LIST-001"]!.status).toBe("failed");
    expect(results["ISSUE-EVENTS-LIST-001"]!.failure!.pointer).toMatch(/\/label$/);
  });

  it("a single event without its issue fails ISSUE-EVENTS-GET-001", async () => {
    const results = await againstFake({ single: ({ issue: _issue, ...rest }) => rest as Event }, ["ISSUE-EVENTS-GET-001"]);
    expect(results["ISSUE-EVENTS-GET-001"]!.status).toBe("failed");
    expect(results["ISSUE-EVENTS-GET-001"]!.failure!.message).toMatch(/issue/);
  });

  it("an unknown event id answered with some other event fails ISSUE-EVENTS-GET-002", async () => {
    const results = await againstFake({ unknownId: "200" }, ["ISSUE-EVENTS-GET-002"]);
    expect(results["ISSUE-EVENTS-GET-002"]!.failure).toMatchObject({ expected: 404, actual: 200 });
  });
});
