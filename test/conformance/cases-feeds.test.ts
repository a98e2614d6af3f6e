/**
 * The activity feed cases (conformance/cases/feeds) against the reference server with its
 * months-long demo history (events older than 90 days, so the window shows): every case passes.
 * Then the proof that the cases can fail: small fake API hosts with one defect each — ETag
 * ignored, pagination past 300, private events shown to anonymous callers, an event older than
 * 90 days — must fail the cases written for them.
 */
import { describe, expect, it } from "vitest";
import { CASES } from "../../conformance/cases/feeds/index.ts";
import { explain, runCase, useConformanceTarget, type HarnessResult, type Target } from "./case-harness.ts";
import { feedApi, startFake, timeline, watchEvent, type FakeEvent, type FeedApiOptions } from "./fake-targets.ts";

describe("feed cases: the table", () => {
  it("has unique, well-formed IDs, one-line titles and seed sections", () => {
    const ids = CASES.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of CASES) {
      expect(c.id).toMatch(/^FEEDS-[A-Z]+-\d{3}$/);
      expect(c.area).toBe("feeds");
      expect(c.title).not.toMatch(/\n/);
      expect(c.seed.length).toBeGreaterThan(0);
    }
  });
});

describe("feed cases against the reference server", () => {
  // A short history (40 actions over six months, as `conformance --reference` records) is enough
  // for events older than 90 days; a longer one only costs the time to record it.
  const target = useConformanceTarget({ history: { count: 40 } });
  for (const c of CASES) {
    it(`${c.id} ${c.title}`, async () => {
      const result = await target.run(c);
      expect(result.status, explain(result)).toBe("passed");
    });
  }
});

const PROFILE: Target["profile"] = {
  users: [
    { login: "octocat", token: "token-of-octocat" },
    { login: "defunkt", token: "token-of-defunkt" },
  ],
  repos: { public: "octocat/hello-world", private: "octocat/secret-plans" },
};

const PRIVATE = watchEvent(1, { repo: "octocat/secret-plans", public: false });

/**
 * A sound feed service: `events` on every feed; the private repository's event only on its feed
 * and on octocat's own feed, for octocat. No issue events API (so no evidence of old activity).
 */
function soundRoute(events: FakeEvent[]): FeedApiOptions["route"] {
  return (path, token) => {
    const owner = token === "token-of-octocat";
    if (path.includes("/issues/")) return 404;
    if (path === "/repos/octocat/secret-plans/events") return owner ? [PRIVATE] : 404;
    if (path === "/users/octocat/events") return owner ? [PRIVATE, ...events] : events;
    return events;
  };
}

async function againstFake(options: FeedApiOptions, ids: string[]): Promise<Record<string, HarnessResult>> {
  const api = await startFake(feedApi(options));
  try {
    const target: Target = { baseUrl: api.url, authUrl: api.url, profile: PROFILE };
    const out: Record<string, HarnessResult> = {};
    for (const id of ids) out[id] = await runCase(CASES.find((c) => c.id === id)!, target);
    return out;
  } finally {
    await api.close();
  }
}

function statuses(results: Record<string, HarnessResult>): Record<string, string> {
  return Object.fromEntries(Object.entries(results).map(([id, r]) => [id, r.status]));
}

describe("feed cases catch defects (fake API hosts)", () => {
  const PUBLIC = timeline(40, 2);

  it("a sound fake passes (or, without triggers and old activity, skips) every case", async () => {
    const results = await againstFake({ route: soundRoute(PUBLIC) }, CASES.map((c) => c.id));
    const expected = Object.fromEntries(
      CASES.map((c) => [c.id, ["FEEDS-PAGE-004", "FEEDS-ETAG-005", "FEEDS-WINDOW-001", "FEEDS-VIS-005", "FEEDS-ORDER-002", "FEEDS-ORG-001", "FEEDS-PAYLOAD-001", "FEEDS-PAYLOAD-002", "FEEDS-PAYLOAD-003"].includes(c.id) ? "skipped" : "passed"]),
    );
    expect(statuses(results), JSON.stringify(results, null, 1)).toEqual(expected);
    expect(results["FEEDS-VIS-005"]!.reason).toMatch(/\borg\b/);
  });

  it("an ETag that If-None-Match never matches (always 200) fails the 304 cases", async () => {
    const ids = ["FEEDS-ETAG-001", "FEEDS-ETAG-002", "FEEDS-ETAG-003", "FEEDS-ETAG-004", "FEEDS-POLL-001"];
    const results = await againstFake({ route: soundRoute(PUBLIC), honourIfNoneMatch: false }, ids);
    expect(statuses(results)).toEqual({ "FEEDS-ETAG-001": "passed", "FEEDS-ETAG-002": "failed", "FEEDS-ETAG-003": "failed", "FEEDS-ETAG-004": "failed", "FEEDS-POLL-001": "passed" });
    expect(results["FEEDS-ETAG-002"]!.failure).toMatchObject({ expected: 304, actual: 200, pointer: "/status" });
    expect(results["FEEDS-ETAG-002"]!.failure!.message).toMatch(/If-None-Match/);
    expect(results["FEEDS-ETAG-002"]!.failure!.curl).toMatch(/if-none-match/);
  });

  it("pagination past 300 (11 pages, 330 events) fails the page limit cases", async () => {
    const ids = ["FEEDS-PAGE-001", "FEEDS-PAGE-003", "FEEDS-PAGE-004"];
    const results = await againstFake({ route: soundRoute(timeline(330, 2)), maxPages: 11 }, ids);
    expect(statuses(results)).toEqual({ "FEEDS-PAGE-001": "passed", "FEEDS-PAGE-003": "failed", "FEEDS-PAGE-004": "failed" });
    expect(results["FEEDS-PAGE-004"]!.failure!.message).toMatch(/stops by page 10/);
    // The seed's part fails (page 11 shows events), before the contract's 422.
    expect(results["FEEDS-PAGE-003"]!.failure).toMatchObject({ expected: "a 4xx, or 200 []", actual: "200 with 30 events" });
  });

  it("330 events in 10 pages of 33 fails the page size and total cases", async () => {
    const results = await againstFake({ route: soundRoute(timeline(330, 2)), pageSize: 33 }, ["FEEDS-PAGE-001", "FEEDS-PAGE-004"]);
    expect(statuses(results)).toEqual({ "FEEDS-PAGE-001": "failed", "FEEDS-PAGE-004": "failed" });
    expect(results["FEEDS-PAGE-001"]!.failure).toMatchObject({ expected: 30, actual: 33 });
  });

  it("a private event on a user's feed for anyone fails the anonymous and other-user cases", async () => {
    const leaky: FeedApiOptions["route"] = (path, token) => (path === "/users/octocat/events" ? [PRIVATE, ...PUBLIC] : soundRoute(PUBLIC)(path, token));
    const ids = ["FEEDS-VIS-001", "FEEDS-VIS-002", "FEEDS-VIS-003", "FEEDS-VIS-004"];
    const results = await againstFake({ route: leaky }, ids);
    expect(statuses(results)).toEqual({ "FEEDS-VIS-001": "passed", "FEEDS-VIS-002": "failed", "FEEDS-VIS-003": "failed", "FEEDS-VIS-004": "passed" });
    expect(results["FEEDS-VIS-002"]!.failure!.message).toMatch(/\/users\/octocat\/events shows an anonymous caller a private event/);
    expect(results["FEEDS-VIS-002"]!.failure!.pointer).toBe("/body/0");
    expect(results["FEEDS-VIS-003"]!.failure!.message).toMatch(/defunkt/);
  });

  it("a private repository's feed open to anonymous callers fails FEEDS-VIS-002", async () => {
    const open: FeedApiOptions["route"] = (path, token) => (path === "/repos/octocat/secret-plans/events" ? [PRIVATE] : soundRoute(PUBLIC)(path, token));
    const results = await againstFake({ route: open }, ["FEEDS-VIS-002"]);
    expect(results["FEEDS-VIS-002"]!.failure).toMatchObject({ expected: 404, actual: 200 });
  });

  it("an event older than 90 days in a feed fails FEEDS-WINDOW-001", async () => {
    const old = watchEvent(99, { createdAt: new Date(Date.now() - 100 * 86_400_000) });
    const results = await againstFake({ route: soundRoute([...PUBLIC, old]) }, ["FEEDS-WINDOW-001"]);
    expect(results["FEEDS-WINDOW-001"]!.status).toBe("failed");
    expect(results["FEEDS-WINDOW-001"]!.failure!.message).toMatch(/event 99 is older than 90 days/);
  });
});
