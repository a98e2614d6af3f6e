/**
 * The runner against a small fake target that breaks the contract: selection by --only/--skip,
 * unmet needs skipped with their reason, every kind of outcome (CaseFailure with expected/actual/
 * pointer and the curl line of the last request, SkipCase, an unexpected error, a time-out), and
 * the console report showing all of it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Case, Need } from "../../conformance/core/types.ts";
import type { Profile } from "../../conformance/core/profile.ts";
import { runSuite, SelectionError, type ProgressEvent } from "../../conformance/run/runner.ts";
import { MAX_NOTES, NOTE_LIMIT, TEXT_LIMIT } from "../../conformance/run/result-bounds.ts";
import { check } from "../../conformance/core/failure.ts";
import { matches, selectCases } from "../../conformance/run/select.ts";
import { unmetNeed } from "../../conformance/run/needs.ts";
import { ConsoleReporter } from "../../conformance/report/console.ts";
import { ALL_CASES, checkUniqueIds } from "../../conformance/cases/index.ts";
import { FAKE_CASES, PROFILE, startFakeTarget, type FakeTarget } from "./fake-target.ts";

let target: FakeTarget;
beforeAll(async () => {
  target = await startFakeTarget();
});
afterAll(() => target?.close());

const run = (cases: Case[], extra: Partial<Parameters<typeof runSuite>[0]> = {}) =>
  runSuite({ baseUrl: target.url, authUrl: target.url, profile: PROFILE, cases, receiverHost: false, ...extra });

const ids = (cases: readonly { id: string }[]) => cases.map((c) => c.id);

describe("selection", () => {
  const cases = [
    { id: "OAUTH-REDIRECT-001", area: "oauth" },
    { id: "OAUTH-REDIRECT-012", area: "oauth" },
    { id: "OAUTH-TOKEN-001", area: "oauth" },
    { id: "FEEDS-ETAG-001", area: "feeds" },
    { id: "WEBHOOK-PING-001", area: "webhooks" },
  ] as const;
  const all = cases.map((c) => ({ ...c, title: c.id, seed: "s" }));

  it.each([
    [undefined, undefined, ["OAUTH-REDIRECT-001", "OAUTH-REDIRECT-012", "OAUTH-TOKEN-001", "FEEDS-ETAG-001", "WEBHOOK-PING-001"]],
    ["OAUTH-*", undefined, ["OAUTH-REDIRECT-001", "OAUTH-REDIRECT-012", "OAUTH-TOKEN-001"]],
    ["oauth-redirect-*", undefined, ["OAUTH-REDIRECT-001", "OAUTH-REDIRECT-012"]],
    ["OAUTH-REDIRECT-00?", undefined, ["OAUTH-REDIRECT-001"]],
    ["OAUTH-*", "OAUTH-REDIRECT-*", ["OAUTH-TOKEN-001"]],
    ["FEEDS-ETAG-001, WEBHOOK-*", undefined, ["FEEDS-ETAG-001", "WEBHOOK-PING-001"]],
    ["webhooks", undefined, ["WEBHOOK-PING-001"]],
    [undefined, "oauth,feeds", ["WEBHOOK-PING-001"]],
    ["*-001", "FEEDS-*", ["OAUTH-REDIRECT-001", "OAUTH-TOKEN-001", "WEBHOOK-PING-001"]],
  ])("--only %s --skip %s", (only, skip, expected) => {
    const { selected, unmatched } = selectCases(all, only, skip);
    expect(ids(selected)).toEqual(expected);
    expect(unmatched).toEqual([]);
  });

  it("reports --only patterns that match nothing", () => {
    expect(selectCases(all, "OAUTH-*,OATH-*").unmatched).toEqual(["OATH-*"]);
  });

  it("takes regular-expression characters in a pattern literally", () => {
    expect(matches({ id: "A.B-001", area: "oauth" }, "A.B-*")).toBe(true);
    expect(matches({ id: "AXB-001", area: "oauth" }, "A.B-*")).toBe(false);
  });

  it("the runner refuses an empty selection and unknown --only patterns", async () => {
    await expect(run(FAKE_CASES, { only: "NOPE-*" })).rejects.toThrow(SelectionError);
    await expect(run(FAKE_CASES, { skip: "FAKE-*" })).rejects.toThrow(/selection is empty/);
  });

  it("runs only what is selected, in order", async () => {
    const summary = await run(FAKE_CASES, { only: "FAKE-PASS-*,FAKE-APP-*" });
    expect(ids(summary.results)).toEqual(["FAKE-PASS-001", "FAKE-APP-001"]);
    expect(target.requests.some((r) => r.url === "/nope")).toBe(true);
  });

  it("registered case IDs are unique, and duplicates are refused", () => {
    expect(new Set(ids(ALL_CASES)).size).toBe(ALL_CASES.length);
    expect(() => checkUniqueIds([{ id: "A-1" }, { id: "B-1" }, { id: "A-1" }])).toThrow(/duplicate conformance case IDs: A-1/);
  });
});

describe("needs", () => {
  const full: Profile = {
    users: [
      { login: "a", password: "pw", token: "t" },
      { login: "b", token: "u" },
    ],
    app: { clientId: "c", clientSecret: "s", callbackUrl: "http://127.0.0.1:8080/cb" },
    org: "o",
    repos: { public: "a/pub", private: "a/priv" },
    issue: 1,
    authorize: { driver: "form" },
    triggers: { push: [{ command: ["true"] }] },
  };
  const bare: Profile = { users: [{ login: "a" }] };

  it.each<[Need, string]>([
    ["user", "profile has no token for users[0]"],
    ["second-user", "profile has no second user with a token (users[1])"],
    ["app", "profile has no app"],
    ["authorize", "profile has no authorize driver"],
    ["org", "profile has no org"],
    ["public-repo", "profile has no public repository (repos.public)"],
    ["private-repo", "profile has no private repository (repos.private)"],
    ["issue", "profile has no issue number"],
    ["trigger", "profile has no triggers"],
    ["receiver", "the run has no webhook receiver"],
    ["hook-admin", "profile has no users[0] token administering repos.public (hooks need one)"],
  ])("%s: met by a full profile, else skipped with “%s”", (need, reason) => {
    expect(unmetNeed([need], full, {})).toBeUndefined();
    expect(unmetNeed([need], bare, { noReceiver: "the run has no webhook receiver" })).toBe(reason);
  });

  it("authorize also needs the app and users[0]'s password", () => {
    expect(unmetNeed(["authorize"], { ...full, app: undefined }, {})).toMatch(/no app/);
    expect(unmetNeed(["authorize"], { ...full, users: [{ login: "a", token: "t" }] }, {})).toMatch(/no password for users\[0\]/);
  });

  it("a case with an unmet need is skipped with the reason and never runs", async () => {
    const summary = await run(FAKE_CASES, { only: "FAKE-APP-001" });
    expect(summary.results[0]).toMatchObject({ id: "FAKE-APP-001", status: "skipped", reason: "profile has no app", durationMs: 0 });
    expect(summary.counts).toEqual({ passed: 0, failed: 0, skipped: 1 });
  });

  it("a receiver need is met when the runner starts its receiver", async () => {
    let url: string | undefined;
    const c: Case = {
      id: "FAKE-RECEIVER-001",
      title: "has a receiver",
      area: "webhooks",
      seed: "s",
      needs: ["receiver"],
      async run(ctx) {
        url = ctx.receiver!.url("/hooks/x");
        await fetch(url, { method: "POST", body: "hello" });
        const d = await ctx.receiver!.waitFor((x) => x.path === "/hooks/x", 2000);
        if (d.raw.toString() !== "hello") throw new Error("wrong body");
      },
    };
    const summary = await run([c], { receiverHost: "127.0.0.1" });
    expect(summary.results[0]!.status).toBe("passed");
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{22}\/hooks\/x$/);
    // The receiver is closed after the run.
    await expect(fetch(url!, { method: "POST" })).rejects.toThrow();
    const without = await run([c]);
    expect(without.results[0]).toMatchObject({ status: "skipped", reason: "the run has no webhook receiver" });
  });
});

describe("outcomes", () => {
  const mk = (id: string, body: Case["run"]): Case => ({ id, title: id, area: "contract", seed: "s", run: body });

  it("a contract violation fails with the pointer and the curl line of the request", async () => {
    const summary = await run(FAKE_CASES, { only: "FAKE-CONTRACT-001" });
    const [r] = summary.results;
    expect(r!.status).toBe("failed");
    expect(r!.failure!.message).toMatch(/^listPublicEvents 200: the response breaks the contract/);
    expect(r!.failure!.pointer).toMatch(/^\/(headers|body)\//);
    // The profile's token is named by its variable (secret-redact.ts), the line runnable with it set.
    expect(r!.failure!.curl).toBe(`curl -i -X GET '${target.url}/events' -H 'accept: application/json' -H 'authorization: token '"$CONFORMANCE_TOKEN"`);
  });

  it("a check failure carries expected, actual and pointer", async () => {
    const [r] = (await run(FAKE_CASES, { only: "FAKE-ETAG-001" })).results;
    expect(r!.failure).toEqual({
      message: "the ETag is quoted",
      expected: String(/^(W\/)?"[^"]*"$/),
      actual: "abc123",
      pointer: "/headers/etag",
      curl: `curl -i -X GET '${target.url}/events' -H 'accept: application/json'`,
      // A plain check is the seed's kind: it stops the case.
      fatal: true,
    });
  });

  it("ctx.skip and SkipCase skip with the reason; notes are kept", async () => {
    const summary = await run([
      mk("X-SKIP-001", async (ctx) => ctx.skip("the target has no wiki")),
      mk("X-NOTE-001", async (ctx) => ctx.note("looked at 3 pages")),
    ]);
    expect(summary.results.map((r) => [r.status, r.reason, r.notes])).toEqual([
      ["skipped", "the target has no wiki", []],
      ["passed", undefined, ["looked at 3 pages"]],
    ]);
  });

  it("an unexpected error is a failure with its message, even without a request", async () => {
    const [r] = (await run([mk("X-ERR-001", async () => JSON.parse("{nope"))])).results;
    expect(r!.status).toBe("failed");
    expect(r!.failure!.message).toMatch(/^unexpected error: SyntaxError: /);
    expect(r!.failure!.curl).toBeUndefined();
  });

  it("a case that does not finish in time fails and the run goes on", async () => {
    const summary = await run([mk("X-SLOW-001", () => new Promise(() => undefined)), mk("X-NEXT-001", async () => undefined)], { timeoutMs: 200 });
    expect(summary.results[0]!.failure).toMatchObject({ message: "the case did not finish within 200 ms", expected: "done within 200 ms", actual: "still running" });
    expect(summary.results[1]!.status).toBe("passed");
  });

  it("values that are not JSON (bigint, Buffer, cycles) are made printable", async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const [r] = (
      await run([
        mk("X-VALUES-001", async () => {
          const { CaseFailure } = await import("../../conformance/core/failure.ts");
          throw new CaseFailure("odd values", { expected: 10n, actual: { raw: Buffer.from("bytes"), cyclic } });
        }),
      ])
    ).results;
    expect(r!.failure!.expected).toBe("10");
    expect(r!.failure!.actual).toEqual({ raw: "bytes", cyclic: { a: 1, self: "[repeated reference]" } });
    expect(() => JSON.stringify(r)).not.toThrow();
  });

  it("progress: start, one event per case as it finishes, end", async () => {
    const events: ProgressEvent[] = [];
    await run(FAKE_CASES, { onProgress: (e) => events.push(e) });
    expect(events.map((e) => (e.type === "case" ? `${e.index + 1}/${e.total} ${e.result.id} ${e.result.status}` : e.type))).toEqual([
      "start",
      "1/4 FAKE-CONTRACT-001 failed",
      "2/4 FAKE-ETAG-001 failed",
      "3/4 FAKE-PASS-001 passed",
      "4/4 FAKE-APP-001 skipped",
      "end",
    ]);
  });
});

describe("what a target makes long stays short in a result", () => {
  it("a failure's message, a skip's reason and the notes are cut, saying how long they were", async () => {
    // The target's answer, a megabyte, carried whole into a message, a reason and 120 notes.
    const huge = (ctx: Parameters<Case["run"]>[0]) => ctx.http.request({ path: `/big`, validate: false }).then(() => "x".repeat(1024 * 1024));
    const failing: Case = { id: "BOUND-FAIL-001", title: "fails with the body", area: "contract", seed: "-", run: async (ctx) => {
      const body = await huge(ctx);
      for (let i = 0; i < 120; i++) ctx.note(`note ${i}: ${body}`);
      check.ok(false, `the answer was ${body}`);
    } };
    const skipping: Case = { id: "BOUND-SKIP-001", title: "skips with the body", area: "contract", seed: "-", run: async (ctx) => ctx.skip(`the target said ${await huge(ctx)}`) };
    const summary = await run([failing, skipping]);
    const [failed, skipped] = summary.results;
    expect(failed!.status).toBe("failed");
    expect(failed!.failure!.message.length).toBeLessThan(TEXT_LIMIT + 100);
    expect(failed!.failure!.message).toMatch(/… \(an excerpt: the first 4096 of \d+ characters\)$/);
    expect(failed!.notes.length).toBe(MAX_NOTES + 1);
    expect(failed!.notes.every((n) => n.length < NOTE_LIMIT + 100)).toBe(true);
    expect(failed!.notes.at(-1)).toBe("70 more note(s) not listed (at most 50 a case)");
    expect(skipped!.status).toBe("skipped");
    expect(skipped!.reason!.length).toBeLessThan(TEXT_LIMIT + 100);
    expect(JSON.stringify(summary).length).toBeLessThan(200 * 1024);
  });
});

describe("console report of a failing run", () => {
  it("shows progress lines, the area groups, expected/actual/pointer/curl per failure and the summary", async () => {
    let out = "";
    const reporter = new ConsoleReporter({ write: (t) => (out += t), color: false });
    const summary = await run(FAKE_CASES, { onProgress: reporter.onProgress });
    reporter.report(summary);
    expect(out).toContain(`Conformance run against ${target.url}`);
    expect(out).toMatch(/\[1\/4\] ✗ FAKE-CONTRACT-001 {2}GET \/events matches the contract {2}\(\d+ ms\)/);
    expect(out).toContain("[3/4] ✓ FAKE-PASS-001");
    expect(out).toContain("[4/4] - FAKE-APP-001  Needs an application  skipped: profile has no app");
    expect(out).toMatch(/ {2}feeds {10}1 passed, 2 failed, 0 skipped/);
    expect(out).toMatch(/ {2}oauth {10}0 passed, 0 failed, 1 skipped/);
    const etag = out.slice(out.indexOf("✗ FAKE-ETAG-001  The ETag"));
    expect(etag).toContain("      seed:     Events › Polling\n");
    expect(etag).toContain("      failure:  the ETag is quoted\n");
    expect(etag).toContain(`      expected: "/^(W\\\\/)?\\"[^\\"]*\\"$/"\n`);
    expect(etag).toContain(`      actual:   "abc123"\n`);
    expect(etag).toContain("      pointer:  /headers/etag\n");
    expect(etag).toContain(`      curl:     curl -i -X GET '${target.url}/events' -H 'accept: application/json'\n`);
    expect(out).toMatch(/4 cases: 1 passed, 2 failed, 1 skipped in \d+ ms\n$/);
    expect(out).not.toContain("\u001b[");
  });

  it("colours only when asked, and never lets control characters from the target through", () => {
    let out = "";
    const reporter = new ConsoleReporter({ write: (t) => (out += t), color: true });
    reporter.report({
      target: { baseUrl: "http://x", authUrl: "http://y" },
      startedAt: new Date(0).toISOString(),
      durationMs: 5,
      counts: { passed: 0, failed: 1, skipped: 0 },
      results: [{ id: "X-1", title: "t", area: "contract", seed: "s", status: "failed", durationMs: 1, notes: [], failure: { message: "bad \u001b[2J clear", actual: "x" } }],
    });
    expect(out).toContain("\u001b[31m");
    expect(out).toContain("bad \\u001b[2J clear");
    expect(out).not.toContain("\u001b[2J");
  });

  it("lists what the run left on the target, from passed cases too, once and with the target's text made inert", () => {
    let out = "";
    const reporter = new ConsoleReporter({ write: (t) => (out += t), color: false });
    const result = (id: string, status: "passed" | "failed", notes: string[]) => ({ id, title: "t", area: "hooks" as const, seed: "s", status, durationMs: 1, notes });
    reporter.report({
      target: { baseUrl: "http://x", authUrl: "http://y" },
      startedAt: new Date(0).toISOString(),
      durationMs: 5,
      counts: { passed: 2, failed: 0, skipped: 0 },
      results: [result("HOOKS-A-001", "passed", ["left behind: hook 7 on repos/o/r (DELETE answered 500)"]), result("OAUTH-B-001", "passed", ["an ordinary note", "left behind: authorization 9 of octocat \u001b]0;owned\u0007"])],
    });
    const section = out.slice(out.indexOf("Left on the target (not removed by the run)"));
    expect(section.split("Rules by level")[0]).toBe(
      "Left on the target (not removed by the run)\n  ! HOOKS-A-001  hook 7 on repos/o/r (DELETE answered 500)\n  ! OAUTH-B-001  authorization 9 of octocat \\u001b]0;owned\\u0007\n\n",
    );
    expect(out).not.toContain("an ordinary note");
    let quiet = "";
    new ConsoleReporter({ write: (t) => (quiet += t), color: false }).report({ target: { baseUrl: "http://x", authUrl: "http://y" }, startedAt: new Date(0).toISOString(), durationMs: 5, counts: { passed: 1, failed: 0, skipped: 0 }, results: [result("HOOKS-A-001", "passed", [])] });
    expect(quiet).not.toContain("Left on the target");
  });
});
