/**
 * Every departure in one run, over real HTTP against a small target whose answers each test
 * chooses: a case with several failing decision checks goes on past each and lists them all
 * (the seed rule beside them passed), each failure with the curl line of the request that showed
 * it — not the case's clean-up — and the `decisions:` block `suggestDecisions` prints from that
 * run, pasted into the profile, makes the next run pass at the contract level. Then the same
 * through the CLI (`--suggest-decisions`, exit 3 then 0) with a registered robustness case whose
 * target answers a feed page beyond the 10th with 200 [] (the seed allows it): a departure of
 * D-INVALID-QUERY, which the profile may switch off, never of "never a 5xx".
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import type { Case, RunSummary } from "../../conformance/core/types.ts";
import { check } from "../../conformance/core/failure.ts";
import { runSuite } from "../../conformance/run/runner.ts";
import { failedLevel } from "../../conformance/run/rule-results.ts";
import { suggestDecisions } from "../../conformance/run/suggest.ts";
import { checkProfile } from "../../conformance/run/load-profile.ts";
import { ConsoleReporter } from "../../conformance/report/console.ts";
import { junitXml } from "../../conformance/report/junit.ts";
import { htmlReport } from "../../conformance/report/html.ts";
import { runCliInProcess } from "../cli/in-process.ts";
import { createAjv } from "../../generators/ajv.ts";
import { PROFILE, startFakeTarget, type FakeTarget, type Handler } from "./fake-target.ts";

const EVENT = JSON.parse(readFileSync(new URL("../../spec/examples/activity-event/valid-create.json", import.meta.url), "utf8")) as Record<string, unknown>;
const ERROR = { message: "Not Found", documentation_url: "https://example.test/docs" };

/**
 * Another team's choices: opaque event ids, a weak ETag, token errors answered 400. The seed's
 * feed headers are all there.
 */
const otherChoices: Handler = (req, res) => {
  if (req.url?.startsWith("/events")) {
    const headers = { "content-type": "application/json", etag: 'W/"v1"', "x-poll-interval": "60", "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "4999", "x-ratelimit-reset": "1900000000" };
    res.writeHead(200, headers).end(JSON.stringify([{ ...EVENT, id: "evt_9f2c" }]));
  } else if (req.url === "/login/oauth/access_token") {
    res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "bad_verification_code", error_description: "The code passed is incorrect or expired.", error_uri: "https://example.test/docs" }));
  } else if (req.method === "DELETE") res.writeHead(204).end();
  else res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify(ERROR));
};

const meta = { area: "feeds" as const, seed: "Events › Polling", needs: ["user" as const] };

/** Three decisions and a seed rule, checked in turn; what it made is cleaned up whatever happened. */
const DEPARTURES: Case = {
  ...meta,
  id: "ONE-RUN-001",
  title: "three decisions and the seed's feed headers",
  rules: ["S-FEED-HEADERS", "D-ACTIVITY-ID", "D-ETAG", "D-OAUTH-TOKEN-ERROR-STATUS"],
  async run(ctx) {
    try {
      // The response against the contract: opaque ids break D-ACTIVITY-ID (the judge's problem, recorded).
      const feed = await ctx.http.request({ operationId: "listPublicEvents", token: ctx.profile.users[0]!.token });
      const etag = feed.headers.get("etag");
      ctx.rule("S-FEED-HEADERS").ok(etag, "an ETag is sent", { pointer: "/headers/etag" });
      ctx.rule("D-ETAG").ok(!etag?.startsWith("W/"), "the ETag is strong", { expected: "a strong ETag", actual: etag, pointer: "/headers/etag" });
      const token = await ctx.http.request({ method: "POST", host: "auth", path: "/login/oauth/access_token", form: { code: "nope" }, validate: false });
      const declared = ctx.decisions.value("D-OAUTH-TOKEN-ERROR-STATUS");
      ctx.rule("D-OAUTH-TOKEN-ERROR-STATUS").status(token.status, declared, `a token error is answered with ${declared}`);
      // A seed assertion after the failed decisions: it runs, and holds.
      const again = await ctx.http.request({ path: "/events", validate: false });
      ctx.rule("S-FEED-HEADERS").ok(again.headers.get("x-poll-interval"), "X-Poll-Interval is sent", { pointer: "/headers/x-poll-interval" });
      ctx.note("reached the end");
    } finally {
      await ctx.http.request({ method: "DELETE", path: "/cleanup/1", validate: false });
    }
  },
};

/** A seed check fails, then the clean-up runs: the failure's curl line is the request that showed it. */
const FATAL: Case = {
  ...meta,
  id: "ONE-RUN-002",
  title: "a seed failure before the clean-up",
  rules: ["S-FEED-HEADERS"],
  async run(ctx) {
    try {
      const feed = await ctx.http.request({ path: "/events?page=1", validate: false });
      check.equal(feed.headers.get("etag"), '"v1"', "the ETag is the feed's", "/headers/etag");
    } finally {
      await ctx.http.request({ method: "DELETE", path: "/cleanup/2", validate: false });
    }
  },
};

let target: FakeTarget | undefined;
afterAll(() => target?.close());

async function run(cases: Case[], decisions?: Record<string, unknown>): Promise<RunSummary> {
  target ??= await startFakeTarget(otherChoices);
  return runSuite({ baseUrl: target.url, authUrl: target.url, profile: { ...PROFILE, ...(decisions ? { decisions: decisions as never } : {}) }, cases, receiverHost: false });
}

describe("every departure in one run", () => {
  it("a case with three failing decisions goes on past each, lists them all, and its seed rule passed", async () => {
    const summary = await run([DEPARTURES]);
    const [r] = summary.results;
    expect(r!.status).toBe("failed");
    expect(r!.notes).toContain("reached the end");
    expect(r!.failures!.map((f) => f.rule)).toEqual(["D-ACTIVITY-ID", "D-ETAG", "D-OAUTH-TOKEN-ERROR-STATUS"]);
    expect(r!.failures!.every((f) => !f.fatal)).toBe(true);
    expect(r!.failure).toEqual(r!.failures![0]);
    expect(r!.failures![1]).toMatchObject({ message: "the ETag is strong", expected: "a strong ETag", actual: 'W/"v1"', pointer: "/headers/etag" });
    expect(r!.failures![2]).toMatchObject({ expected: 200, actual: 400, pointer: "/status" });
    const rule = (id: string) => summary.rules!.find((x) => x.id === id)!;
    expect(rule("S-FEED-HEADERS").status).toBe("passed");
    for (const id of ["D-ACTIVITY-ID", "D-ETAG", "D-OAUTH-TOKEN-ERROR-STATUS"]) expect(rule(id)).toMatchObject({ status: "failed", failures: [{ case: "ONE-RUN-001" }] });
    expect(summary.levels).toEqual({ seed: { passed: 1, failed: 0, off: 0, unchecked: 0 }, contract: { passed: 0, failed: 3, off: 0, unchecked: 0 } });
    expect(failedLevel(summary)).toBe("contract");

    // Each reporter shows the three.
    let out = "";
    new ConsoleReporter({ write: (t) => (out += t) }).report(summary);
    expect(out).toContain("ONE-RUN-001  three decisions and the seed's feed headers  (3 failures)");
    for (const id of ["D-ACTIVITY-ID", "D-ETAG", "D-OAUTH-TOKEN-ERROR-STATUS"]) expect(out).toContain(`rule:     ${id} (contract decision)`);
    expect(junitXml(summary)).toContain('message="3 failures; the first: ');
    expect(junitXml(summary)).toContain("[3 of 3] a token error is answered with 200");
    expect(htmlReport(summary)).toContain("Failure 3 of 3</dt>");
    // results.json: every failure, the suggestion, as its schema describes them.
    const validate = createAjv([]).compile(JSON.parse(readFileSync(new URL("../../conformance/report/results.schema.json", import.meta.url), "utf8")) as object);
    expect(validate(JSON.parse(JSON.stringify(summary))), JSON.stringify(validate.errors)).toBe(true);
  });

  it("each failure's curl line is the request that showed it, not the clean-up after it", async () => {
    const summary = await run([DEPARTURES, FATAL]);
    const [departures, fatal] = summary.results;
    const [ids, etag, status] = departures!.failures!;
    expect(ids!.curl).toBe(`curl -i -X GET '${target!.url}/events' -H 'accept: application/json' -H 'authorization: token '"$CONFORMANCE_TOKEN"`);
    expect(etag!.curl).toBe(ids!.curl);
    expect(status!.curl).toMatch(new RegExp(`^curl -i -X POST '${target!.url}/login/oauth/access_token'`));
    expect(fatal!.failure).toMatchObject({ fatal: true, curl: `curl -i -X GET '${target!.url}/events?page=1' -H 'accept: application/json'` });
    // The clean-ups did run, after the failures.
    expect(target!.requests.filter((q) => q.method === "DELETE").map((q) => q.url)).toEqual(expect.arrayContaining(["/cleanup/1", "/cleanup/2"]));
  });

  it("the suggested decisions, pasted into the profile, make the next run pass at the contract level", async () => {
    const first = await run([DEPARTURES]);
    const block = suggestDecisions(first, { "D-RATE-RESET": "off" });
    expect(block).toMatch(/^# The decisions that would make the contract level pass/);
    expect(block).toContain("\n  D-ACTIVITY-ID: opaque  # evidence: ONE-RUN-001: listPublicEvents 200: the response breaks the contract (D-ACTIVITY-ID)");
    expect(block).toContain("\n  D-ETAG: off  # evidence: ONE-RUN-001: the ETag is strong\n");
    expect(block).toContain("\n  D-OAUTH-TOKEN-ERROR-STATUS: 400  # evidence: ONE-RUN-001: a token error is answered with 200\n");
    expect(block).toContain("\n  D-RATE-RESET: off  # from the profile\n");
    // What results.json carries is the same block.
    expect(first.suggestedDecisions!.yaml).toBe(suggestDecisions(first, {}));
    expect(first.suggestedDecisions!.entries.map((e) => [e.id, e.setting, e.source])).toEqual([
      ["D-ACTIVITY-ID", "opaque", "suggested"],
      ["D-ETAG", "off", "suggested"],
      ["D-OAUTH-TOKEN-ERROR-STATUS", 400, "suggested"],
    ]);

    const pasted = checkProfile({ ...PROFILE, ...(parse(block) as object) });
    const second = await run([DEPARTURES], pasted.decisions);
    expect(second.results[0]!.status, JSON.stringify(second.results[0]!.failures)).toBe("passed");
    expect(failedLevel(second)).toBeUndefined();
    const statuses = Object.fromEntries(second.rules!.map((r) => [r.id, r.status]));
    expect(statuses).toEqual({ "S-FEED-HEADERS": "passed", "D-ACTIVITY-ID": "passed", "D-ETAG": "off", "D-OAUTH-TOKEN-ERROR-STATUS": "passed" });
    expect(second.suggestedDecisions!.entries.every((e) => e.source === "profile")).toBe(true);
  });

  it("a decision switched off skips only its own assertions: fail() goes on to the seed's after it", async () => {
    const lastIsOff: Case = {
      ...meta,
      id: "ONE-RUN-003",
      title: "the seed's assertions, then a switched-off decision's fail()",
      rules: ["S-FEED-HEADERS", "D-ETAG"],
      async run(ctx) {
        const feed = await ctx.http.request({ path: "/events", validate: false });
        ctx.rule("S-FEED-HEADERS").ok(feed.headers.get("etag"), "an ETag is sent");
        if (feed.headers.get("etag")?.startsWith("W/")) ctx.rule("D-ETAG").fail("the ETag is strong");
      },
    };
    const summary = await run([lastIsOff], { "D-ETAG": "off" });
    expect(summary.results[0]!.status).toBe("passed");
    expect(Object.fromEntries(summary.rules!.map((r) => [r.id, r.status]))).toEqual({ "S-FEED-HEADERS": "passed", "D-ETAG": "off" });
  });
});

describe("stopping a decision's branch", () => {
  const branch: Case = {
    ...meta,
    id: "ONE-RUN-005",
    title: "a branch that needs its decision's premise",
    rules: ["S-FEED-HEADERS", "D-ETAG"],
    async run(ctx) {
      const feed = await ctx.http.request({ path: "/events", validate: false });
      ctx.rule("S-FEED-HEADERS").ok(feed.headers.get("etag"), "an ETag is sent");
      // The helpers say whether their assertion held: false stops the branch, not the case.
      if (ctx.rule("D-ETAG").matches(feed.headers.get("etag"), /^"/, "the ETag is strong")) ctx.note("the strong-ETag branch ran");
      ctx.note("after the branch");
    },
  };

  it("a failed decision's helper returns false; switched off, true", async () => {
    const [on] = (await run([branch])).results;
    expect(on).toMatchObject({ status: "failed", notes: ["after the branch"] });
    const [off] = (await run([branch], { "D-ETAG": "off" })).results;
    expect(off).toMatchObject({ status: "passed", notes: ["the strong-ETag branch ran", "after the branch"] });
  });

  it("a thrown failure of a switched-off decision stops the case, and the seed rule whose assertions held before it is passed", async () => {
    const elsewhere: Case = {
      ...meta,
      id: "ONE-RUN-006",
      title: "a seed assertion, then a link to another origin",
      rules: ["S-FEED-HEADERS"],
      async run(ctx) {
        const feed = await ctx.http.request({ path: "/events", validate: false });
        ctx.rule("S-FEED-HEADERS").ok(feed.headers.get("etag"), "an ETag is sent");
        await ctx.http.request({ path: "http://127.0.0.2:9/events", token: ctx.profile.users[0]!.token, validate: false });
      },
    };
    const summary = await run([elsewhere], { "D-URL-ORIGINS": "off" });
    expect(summary.results[0]).toMatchObject({ status: "skipped", reason: expect.stringMatching(/^not checked past D-URL-ORIGINS, which the profile switches off/), passedRules: ["S-FEED-HEADERS"] });
    expect(Object.fromEntries(summary.rules!.map((r) => [r.id, r.status]))).toEqual({ "S-FEED-HEADERS": "passed" });
  });
});

describe("a decision failing over and over in one case", () => {
  it("is listed five times (the same assertion once), the rest counted in a note", async () => {
    const loop: Case = {
      ...meta,
      id: "ONE-RUN-004",
      title: "eight items out of order",
      rules: ["S-FEED-HEADERS", "D-FEED-ORDER"],
      async run(ctx) {
        await ctx.http.request({ path: "/events", validate: false });
        for (let i = 0; i < 8; i++) ctx.rule("D-FEED-ORDER").fail(`item ${i} is out of order`, { pointer: `/body/${i}` });
        ctx.rule("D-FEED-ORDER").fail("item 0 is out of order", { pointer: "/body/0" });
      },
    };
    const [r] = (await run([loop])).results;
    expect(r!.failures!.map((f) => f.message)).toEqual([0, 1, 2, 3, 4].map((i) => `item ${i} is out of order`));
    expect(r!.notes).toEqual(["3 more failure(s) of D-FEED-ORDER not listed (at most 5 per rule and 50 per case)"]);
  });
});

describe("conformance --suggest-decisions, from an empty decisions block to a passing profile", () => {
  /**
   * A feed server of another team: a page beyond the 10th is answered 200 [] (the seed: "up to 10
   * pages", so nothing there), any other bad page a 422 in the contract's shape, bad credentials 401.
   */
  const pageEleven: Handler = (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (url.searchParams.has("access_token") || req.headers.authorization !== `token ${PROFILE.users[0]!.token}`) return json(401, { message: "Bad credentials", documentation_url: "https://example.test/docs" });
    const page = url.searchParams.getAll("page");
    if (page.length === 1 && /^\d+$/.test(page[0]!) && Number(page[0]) > 10) return json(200, []);
    json(422, { message: "Validation Failed", errors: [{ resource: "Event", field: "page", code: "invalid" }], documentation_url: "https://example.test/docs" });
  };

  it("the robustness case counts page 11 answered 200 [] against D-INVALID-QUERY; the block switches it off; the next run exits 0", async () => {
    const server = await startFakeTarget(pageEleven);
    const dir = mkdtempSync(join(tmpdir(), "sc-suggest-"));
    try {
      const profile = join(dir, "profile.yaml");
      const base = ["users:", `  - { login: tester, token: ${PROFILE.users[0]!.token} }`, "repos: { public: tester/sandbox }", ""].join("\n");
      writeFileSync(profile, `${base}decisions: {}\n`);
      const args = ["conformance", "--base-url", server.url, "--auth-url", server.url, "--profile", profile, "--only", "ROBUST-LIST_PUBLIC_EVENTS-001", "--receiver-host", "127.0.0.1", "--reporter", "console,json", "--out", join(dir, "report"), "--suggest-decisions"];
      const first = await runCliInProcess(args);
      expect(first.code, first.stdout + first.stderr).toBe(3);
      expect(first.stdout).toContain("rule:     D-INVALID-QUERY (contract decision)");
      expect(first.stdout).toMatch(/a bad input to listPublicEvents was accepted \(200\) — bad input \d+ of \d+: query page = "\d+"/);
      expect(first.stdout).not.toContain("D-CONF-NEVER-5XX (contract");
      const block = first.stdout.slice(first.stdout.indexOf("# The decisions that would make the contract level pass"));
      expect(block).toMatch(/\ndecisions:\n {2}D-INVALID-QUERY: off {2}# evidence: ROBUST-LIST_PUBLIC_EVENTS-001: a bad input to listPublicEvents was accepted \(200\)/);
      const results = JSON.parse(readFileSync(join(dir, "report", "results.json"), "utf8")) as RunSummary;
      expect(results.suggestedDecisions!.yaml).toBe(block);

      // Pasted: the whole block replaces the empty one.
      writeFileSync(profile, `${base}${block}`);
      const second = await runCliInProcess(args);
      expect(second.code, second.stdout + second.stderr).toBe(0);
      expect(second.stdout).toContain("  D-INVALID-QUERY: off  # from the profile");
    } finally {
      await server.close();
    }
  });

  it("a 5xx stays a failure with D-CONF-ROBUSTNESS and D-INVALID-QUERY off: never a 5xx is its own rule", async () => {
    const crashes = await startFakeTarget((req, res, body) => (new URL(req.url ?? "/", "http://x").searchParams.get("page") === "0" ? res.writeHead(500, { "content-type": "text/plain" }).end("boom") : pageEleven(req, res, body)));
    try {
      const summary = await runSuite({ baseUrl: crashes.url, authUrl: crashes.url, profile: { ...PROFILE, decisions: { "D-CONF-ROBUSTNESS": "off", "D-INVALID-QUERY": "off" } }, only: "ROBUST-LIST_PUBLIC_EVENTS-001", receiverHost: false });
      const [r] = summary.results;
      expect(r!.status).toBe("failed");
      expect(r!.failures!.map((f) => [f.rule, f.message])).toEqual([["D-CONF-NEVER-5XX", expect.stringMatching(/^a bad input to listPublicEvents answered 500 — bad input \d+ of \d+: query page = "0"$/)]]);
      expect(r!.failure!.curl).toBe(`curl -i -X GET '${crashes.url}/events?page=0' -H 'accept: application/json' -H 'authorization: token '"$CONFORMANCE_TOKEN"`);
      expect(failedLevel(summary)).toBe("contract");
    } finally {
      await crashes.close();
    }
  });
});

describe("suggestDecisions, from a summary alone", () => {
  const failed = (id: string, failures: Record<string, unknown>[]) => ({ id, title: id, area: "webhooks" as const, seed: "s", status: "failed" as const, durationMs: 1, notes: [], failures: failures as never, failure: failures[0] as never });
  const summaryOf = (results: ReturnType<typeof failed>[]): RunSummary => ({ target: { baseUrl: "http://x", authUrl: "http://x" }, startedAt: new Date(0).toISOString(), durationMs: 1, results, counts: { passed: 0, failed: results.length, skipped: 0 } });

  it("declares what the evidence shows, and switches off what it does not settle", () => {
    const summary = summaryOf([
      failed("SIG-001", [{ rule: "D-SIGNATURE", message: "X-Hub-Signature is sha1=…", actual: "sha256=ab12", pointer: "/headers/x-hub-signature" }]),
      failed("TOKEN-001", [{ rule: "D-OAUTH-TOKEN-ERROR-STATUS", message: "answered 200", actual: 400, pointer: "/status" }]),
      failed("TOKEN-002", [{ rule: "D-OAUTH-TOKEN-ERROR-STATUS", message: "answered 200", actual: 401, pointer: "/status" }]),
      failed("RATE-001", [
        { rule: "D-RATE-RESET", message: "X-RateLimit-Limit of an authenticated user: 5000 an hour (D-RATE-RESET)", actual: 1000, pointer: "/headers/x-ratelimit-limit" },
        { rule: "D-RATE-RESET", message: "X-RateLimit-Limit of an anonymous client: 60 an hour (D-RATE-RESET)", actual: 100, pointer: "/headers/x-ratelimit-limit" },
      ]),
      failed("MIXED-001", [{ rule: "D-ERRORS", message: "the message\non two lines" }, { rule: "D-ERRORS", message: "again" }, { rule: "S-PING", message: "a seed failure", fatal: true }]),
    ]);
    expect(suggestDecisions(summary, { "D-ETAG": "off", "D-ACTIVITY-ID": "opaque", "D-ERRORS": "on" })).toBe(
      [
        "# The decisions that would make the contract level pass: review each line, paste into the profile, run again.",
        "decisions:",
        "  D-ACTIVITY-ID: opaque  # from the profile",
        "  D-ERRORS: off  # evidence: MIXED-001: the message on two lines (and 1 more)",
        "  D-ETAG: off  # from the profile",
        // 400 and 401: no one status to declare.
        "  D-OAUTH-TOKEN-ERROR-STATUS: off  # evidence: TOKEN-001: answered 200 (and 1 more)",
        '  D-RATE-RESET: {"authenticated":1000,"anonymous":100}  # evidence: RATE-001: X-RateLimit-Limit of an authenticated user: 5000 an hour (D-RATE-RESET) (and 1 more)',
        "  D-SIGNATURE: sha256  # evidence: SIG-001: X-Hub-Signature is sha1=…",
        "",
      ].join("\n"),
    );
    // As YAML, the block is a valid profile's decisions.
    expect(checkProfile({ users: [{ login: "a" }], ...(parse(suggestDecisions(summary)) as object) }).decisions!["D-RATE-RESET"]).toEqual({ authenticated: 1000, anonymous: 100 });
    expect(suggestDecisions(summaryOf([]))).toMatch(/\ndecisions: \{\}\n$/);
  });

  it("leaves out a decision whose only evidence is a trigger of the profile that did not work, saying so (issue 40)", () => {
    const summary = summaryOf([
      failed("FEEDS-PAYLOAD-002", [{ rule: "D-SCHEMA-ACTIVITY-CREATE", message: 'trigger "repository": POST http://t/_test/trigger/repository answered 422' }]),
      failed("SIG-001", [{ rule: "D-SIGNATURE", message: 'trigger "push": POST http://t/push answered 500' }, { rule: "D-SIGNATURE", message: "X-Hub-Signature is sha1=…", actual: "ab12", pointer: "/headers/x-hub-signature" }]),
    ]);
    const yaml = suggestDecisions(summary);
    expect(yaml).not.toMatch(/^  D-SCHEMA-ACTIVITY-CREATE:/m);
    expect(yaml).toMatch(/^# not suggested: D-SCHEMA-ACTIVITY-CREATE — failed only where the profile's trigger did not work \(FEEDS-PAYLOAD-002: trigger "repository": POST http:\/\/t\/_test\/trigger\/repository answered 422\): fix the trigger and run again$/m);
    // A trigger failure beside real evidence: the real evidence decides.
    expect(yaml).toMatch(/^  D-SIGNATURE: off  # evidence: SIG-001: X-Hub-Signature is sha1=…$/m);
    expect(checkProfile({ users: [{ login: "a" }], ...(parse(yaml) as object) }).decisions).toEqual({ "D-SIGNATURE": "off" });
  });
});
