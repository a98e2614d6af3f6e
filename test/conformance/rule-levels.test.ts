/**
 * The two levels over real HTTP, against a small target whose answers each test chooses: one
 * departure fails one rule (the rule's own case, not the case that read the response), a decision
 * switched off in the profile is reported as such and its keywords are not applied, a declared
 * value is what the suite holds the target to, `ctx.rule` checks nothing for a switched-off
 * decision, and credentials never leave the target's two origins.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Case } from "../../conformance/core/types.ts";
import { runSuite } from "../../conformance/run/runner.ts";
import { failedLevel } from "../../conformance/run/rule-results.ts";
import { checkProfile, ProfileError } from "../../conformance/run/load-profile.ts";
import { junitXml } from "../../conformance/report/junit.ts";
import { ConsoleReporter } from "../../conformance/report/console.ts";
import { PROFILE, startFakeTarget, type FakeTarget, type Handler } from "./fake-target.ts";

const EVENT = JSON.parse(readFileSync(new URL("../../spec/examples/activity-event/valid-create.json", import.meta.url), "utf8")) as Record<string, unknown>;

/** A feed that keeps the contract, but for what `change` does to its headers and body. */
function feed(change: (headers: Record<string, string>, body: Record<string, unknown>[]) => void = () => undefined, extra?: Handler): Handler {
  return (req, res, body) => {
    if (req.url?.startsWith("/events")) {
      const headers: Record<string, string> = { "content-type": "application/json", etag: '"v1"', "x-poll-interval": "60", "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "4999", "x-ratelimit-reset": "1900000000" };
      const events = [{ ...EVENT }];
      change(headers, events);
      res.writeHead(200, headers).end(JSON.stringify(events));
      return;
    }
    if (extra) return extra(req, res, body);
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ message: "Not Found", documentation_url: "https://example.test" }));
  };
}

const meta = { area: "feeds" as const, seed: "Endpoints › A", needs: ["user" as const] };

/** Reads the feed; enforces only the seed's feed headers. */
const READER: Case = {
  ...meta,
  id: "LEVEL-READ-001",
  title: "reads /events",
  rules: ["S-FEED-HEADERS"],
  async run(ctx) {
    await ctx.http.request({ operationId: "listPublicEvents", token: ctx.profile.users[0]!.token });
  },
};

/** The rule's own case: here it only checks a header it does not need to read again. */
const RESET_CASE: Case = {
  ...meta,
  area: "contract",
  id: "LEVEL-RESET-001",
  title: "X-RateLimit-Reset in epoch seconds",
  rules: ["D-RATE-RESET"],
  async run() {},
};

/** A case of a seed rule and a decision: the decision's assertion goes through ctx.rule. */
const MIXED: Case = {
  ...meta,
  id: "LEVEL-MIXED-001",
  title: "the ETag is there (seed) and strong (decision)",
  rules: ["S-FEED-HEADERS", "D-ETAG"],
  async run(ctx) {
    const res = await ctx.http.request({ path: "/events", validate: false });
    const etag = res.headers.get("etag");
    ctx.rule("S-FEED-HEADERS").ok(etag, "an ETag is sent");
    ctx.rule("D-ETAG").ok(!etag!.startsWith("W/"), "the ETag is strong", { actual: etag });
    ctx.note("reached the end");
  },
};

let target: FakeTarget | undefined;
afterAll(() => target?.close());

async function against(handler: Handler, cases: Case[], decisions?: Record<string, unknown>) {
  await target?.close();
  target = await startFakeTarget(handler);
  return runSuite({ baseUrl: target.url, authUrl: target.url, profile: { ...PROFILE, ...(decisions ? { decisions: decisions as never } : {}) }, cases, receiverHost: false });
}

describe("one departure, one failing rule", () => {
  it("a response without X-RateLimit-Reset fails D-RATE-RESET's case, not the case that read it", async () => {
    const summary = await against(feed((h) => delete h["x-ratelimit-reset"]), [READER, RESET_CASE]);
    const [reader, reset] = summary.results;
    expect(reader!.status).toBe("passed");
    expect(reader!.notes.join("\n")).toContain("breaks D-RATE-RESET; counted against that rule (LEVEL-RESET-001)");
    expect(reset!.status).toBe("failed");
    expect(reset!.failure).toMatchObject({ rule: "D-RATE-RESET", seenIn: "LEVEL-READ-001", pointer: "/headers/x-ratelimit-reset" });
    expect(reset!.failure!.message).toMatch(/^listPublicEvents 200: the response breaks the contract \(D-RATE-RESET\): \/headers\/x-ratelimit-reset is required \(seen in LEVEL-READ-001\)$/);
    expect(summary.rules!.find((r) => r.id === "S-FEED-HEADERS")!.status).toBe("passed");
    expect(summary.rules!.find((r) => r.id === "D-RATE-RESET")!.status).toBe("failed");
    expect(summary.levels).toEqual({ seed: { passed: 1, failed: 0, off: 0, unchecked: 0 }, contract: { passed: 0, failed: 1, off: 0, unchecked: 0 } });
    expect(failedLevel(summary)).toBe("contract");
  });

  it("a missing seed field fails its seed rule, and the run fails at the seed level", async () => {
    const summary = await against(feed((_h, body) => delete body[0]!.actor), [READER, RESET_CASE]);
    expect(summary.results.map((r) => r.status)).toEqual(["passed", "passed"]);
    const rule = summary.rules!.find((r) => r.id === "S-ACTIVITY-EVENT-FIELDS")!;
    expect(rule).toMatchObject({ level: "seed", status: "failed", cases: [] });
    expect(rule.failures[0]!.message).toContain("/body/0/actor is required");
    expect(failedLevel(summary)).toBe("seed");
    let out = "";
    new ConsoleReporter({ write: (t) => (out += t) }).report(summary);
    expect(out).toContain("Seed conformance (S- rules): FAILS — 2 rules: 1 passed, 1 failed");
    expect(out).toContain("✗ S-ACTIVITY-EVENT-FIELDS  LEVEL-READ-001");
    expect(junitXml(summary)).toMatch(/<testsuite name="rules\.seed" tests="2" failures="1"/);
  });

  it("the decision switched off: its keywords are not applied, the rule is reported off, the run passes", async () => {
    const summary = await against(feed((h) => delete h["x-ratelimit-reset"]), [READER, RESET_CASE], { "D-RATE-RESET": "off" });
    expect(summary.results.map((r) => [r.id, r.status, r.reason])).toEqual([
      ["LEVEL-READ-001", "passed", undefined],
      ["LEVEL-RESET-001", "skipped", "not checked: the profile switches off D-RATE-RESET (the target chose otherwise)"],
    ]);
    expect(summary.results[0]!.notes).toEqual([]);
    expect(summary.rules!.find((r) => r.id === "D-RATE-RESET")!.status).toBe("off");
    expect(summary.levels!.contract).toEqual({ passed: 0, failed: 0, off: 1, unchecked: 0 });
    expect(summary.decisions).toEqual({ off: ["D-RATE-RESET"], declared: {} });
    expect(failedLevel(summary)).toBeUndefined();
  });

  it("opaque activity ids: a contract problem with the decision on, none once the profile declares them", async () => {
    const opaque = feed((_h, body) => (body[0]!.id = "evt_9f2c"));
    const ID_CASE: Case = { ...RESET_CASE, id: "LEVEL-ID-001", title: "ids", rules: ["D-ACTIVITY-ID"] };
    const strict = await against(opaque, [READER, ID_CASE]);
    expect(strict.results[1]!.failure).toMatchObject({ rule: "D-ACTIVITY-ID", pointer: "/body/0/id" });
    const declared = await against(opaque, [READER, ID_CASE], { "D-ACTIVITY-ID": "opaque" });
    expect(declared.results.map((r) => r.status)).toEqual(["passed", "passed"]);
    expect(declared.decisions).toEqual({ off: [], declared: { "D-ACTIVITY-ID": "opaque" } });
  });
});

describe("ctx.rule", () => {
  const weak = feed((h) => (h.etag = 'W/"v1"'));

  it("fails the case against the decision while it is on", async () => {
    const [r] = (await against(weak, [MIXED])).results;
    expect(r!.status).toBe("failed");
    expect(r!.failure).toMatchObject({ rule: "D-ETAG", message: "the ETag is strong", actual: 'W/"v1"' });
  });

  it("checks nothing for a decision switched off, and the case goes on to its seed assertions", async () => {
    const [r] = (await against(weak, [MIXED], { "D-ETAG": "off" })).results;
    expect(r!.status).toBe("passed");
    expect(r!.notes).toEqual(["reached the end"]);
  });

  it("still fails the seed's part with the decision off", async () => {
    const [r] = (await against(feed((h) => delete h.etag), [MIXED], { "D-ETAG": "off" })).results;
    expect(r!.status).toBe("failed");
    expect(r!.failure).toMatchObject({ rule: "S-FEED-HEADERS", message: "an ETag is sent" });
  });

  it("a plain failure of a switched-off first rule is reported as not checked, not failed", async () => {
    const plain: Case = { ...MIXED, id: "LEVEL-PLAIN-001", rules: ["D-ETAG", "S-FEED-HEADERS"], run: async (ctx) => void (await ctx.http.request({ path: "/events", validate: false }), ctx.rule("D-ETAG").ok(false, "never")) };
    const throwing: Case = { ...plain, run: async () => { throw new Error("boom"); } };
    const [a, b] = (await against(weak, [plain, { ...throwing, id: "LEVEL-PLAIN-002" }], { "D-ETAG": "off" })).results;
    expect(a!.status).toBe("passed");
    expect(b!.status).toBe("skipped");
    expect(b!.reason).toMatch(/^not checked past D-ETAG, which the profile switches off \(unexpected error: Error: boom\)$/);
  });
});

describe("a failure of a rule the case does not list", () => {
  it("still counts against that rule at its level", async () => {
    const other: Case = { ...MIXED, id: "LEVEL-OTHER-001", rules: ["S-FEED-HEADERS"], run: async (ctx) => ctx.rule("D-ETAG").fail("not strong") };
    const summary = await against(feed(), [other]);
    expect(summary.rules!.find((r) => r.id === "D-ETAG")).toMatchObject({ level: "contract", status: "failed", cases: [], failures: [{ case: "LEVEL-OTHER-001", message: "not strong" }] });
    expect(failedLevel(summary)).toBe("contract");
  });
});

describe("credentials stay home", () => {
  it("a Link to another origin fails the case that meets it, and nothing reaches that origin", async () => {
    const elsewhere = await startFakeTarget();
    try {
      const follow: Case = {
        ...meta,
        id: "LEVEL-LINK-001",
        title: "follows next",
        rules: ["S-FEED-HEADERS"],
        async run(ctx) {
          await ctx.http.request({ path: `${elsewhere.url}/events?page=2`, token: ctx.profile.users[0]!.token, validate: false });
        },
      };
      const summary = await against(feed(), [follow]);
      const [r] = summary.results;
      expect(r!.status).toBe("failed");
      expect(r!.failure!.message).toMatch(new RegExp(`^the suite would send credentials \\(authorization\\) to ${elsewhere.url.replace(/\./g, "\\.")}, which is neither of the target's origins`));
      // The seed says nothing of where links point: the failure is the contract's decision's, not the case's seed rule.
      expect(r!.failure!.rule).toBe("D-URL-ORIGINS");
      expect(summary.rules!.find((x) => x.id === "D-URL-ORIGINS")).toMatchObject({ level: "contract", status: "failed" });
      expect(summary.rules!.find((x) => x.id === "S-FEED-HEADERS")?.status).not.toBe("failed");
      expect(failedLevel(summary)).toBe("contract");
      // A target that declares its links live elsewhere: the case stops there, skipped, and still sends nothing.
      const [off] = (await against(feed(), [follow], { "D-URL-ORIGINS": "off" })).results;
      expect(off!.status).toBe("skipped");
      expect(off!.reason).toMatch(/^not checked past D-URL-ORIGINS, which the profile switches off \(the suite would send credentials/);
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });
});

describe("the profile's decisions", () => {
  it("takes off, on and the declared values", () => {
    const p = checkProfile({ users: [{ login: "a" }], decisions: { "D-ETAG": "off", "D-RATE-RESET": { authenticated: 1000, anonymous: 10 }, "D-OAUTH-TOKEN-ERROR-STATUS": 400, "D-SIGNATURE": "sha256", "D-ACTIVITY-ID": "opaque", "D-ERRORS": "on" } });
    expect(p.decisions!["D-RATE-RESET"]).toEqual({ authenticated: 1000, anonymous: 10 });
  });

  it.each([
    [{ "S-FEED-HEADERS": "off" }, "/decisions: property name must be valid"],
    [{ "D-ETAG": "maybe" }, "/decisions/D-ETAG: must be equal to one of the allowed values"],
    [{ "D-OAUTH-TOKEN-ERROR-STATUS": 99 }, "/decisions/D-OAUTH-TOKEN-ERROR-STATUS: must match exactly one schema in oneOf"],
    [{ "D-SIGNATURE": "md5" }, "/decisions/D-SIGNATURE: must be equal to one of the allowed values"],
  ])("refuses %j", (decisions, problem) => {
    expect(() => checkProfile({ users: [{ login: "a" }], decisions })).toThrow(ProfileError);
    try {
      checkProfile({ users: [{ login: "a" }], decisions });
    } catch (error) {
      expect((error as ProfileError).problems).toContain(problem);
    }
  });

  it("refuses a decision that is no rule (a typo would check what the author switched off)", () => {
    expect(() => checkProfile({ users: [{ login: "a" }], decisions: { "D-ETAGS": "off" } })).toThrow(/decisions names what is no decision of spec\/DECISIONS.md/);
  });
});
