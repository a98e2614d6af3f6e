/**
 * The webhook cases (conformance/cases/webhooks) run by the real runner: against the reference
 * server through `runReference` (its profile, triggers and the built-in receiver), where every
 * case passes; against a sound fake hooks service, where every case passes too (so the fake
 * proves nothing by accident); and against fakes with one defect each — a signature over
 * re-serialized JSON, no ping on creation, a missing, non-UUID or repeated X-Service-Delivery, an
 * unsubscribed event delivered — where the case written for that rule fails, saying why.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CaseResult, RunSummary } from "../../conformance/core/types.ts";
import { CASES } from "../../conformance/cases/webhooks/index.ts";
import { runReference } from "../../conformance/reference-profile.ts";
import { runSuite } from "../../conformance/run/runner.ts";
import { startFakeHooks, type FakeHooksOptions } from "./fake-webhook-targets.ts";
import { ceiling } from "../ceilings.ts";

const RUN_TIMEOUT_MS = ceiling(60_000);
// How long a case waits for a delivery: a ceiling, scaled for a busy machine (test/ceilings.ts).
const DELIVERY_BOUND_MS = ceiling(20_000);

function explain(r: CaseResult | undefined): string {
  return JSON.stringify(r && { id: r.id, status: r.status, reason: r.reason, failure: r.failure, notes: r.notes }, null, 2);
}

/** The cases named by `ids`, run by the runner against a fake with `options`. */
async function againstFake(options: FakeHooksOptions, ids: readonly string[]): Promise<Record<string, CaseResult>> {
  const fake = await startFakeHooks(options);
  try {
    const summary = await runSuite({ baseUrl: fake.url, authUrl: fake.url, profile: fake.profile, cases: CASES.filter((c) => ids.includes(c.id)) });
    // None of these defects is one the contract's schemas could see: the fake's answers and payloads keep to it.
    expect(fake.contractErrors, "the fake's own answers and payloads keep to the contract").toEqual([]);
    return Object.fromEntries(summary.results.map((r) => [r.id, r]));
  } finally {
    await fake.close();
  }
}

describe("webhook cases: the table", () => {
  it("has unique, well-formed IDs, one-line titles, seed sections, and needs a hook and the receiver", () => {
    const ids = CASES.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of CASES) {
      expect(c.id).toMatch(/^WEBHOOK-[A-Z]+-\d{3}$/);
      expect(c.area).toBe("webhooks");
      expect(c.title).not.toMatch(/\n/);
      expect(c.seed.length).toBeGreaterThan(0);
      expect(c.needs).toEqual(expect.arrayContaining(["hook-admin", "receiver"]));
    }
  });
});

describe("webhook cases against the reference server", () => {
  let summary: RunSummary;
  beforeAll(async () => {
    // A long delivery bound: a case that waited it out instead of for the delivery would show.
    summary = await runReference({ cases: CASES, server: { history: false }, adjustProfile: (p) => ({ ...p, deliveryTimeoutMs: DELIVERY_BOUND_MS }) });
  }, RUN_TIMEOUT_MS);

  for (const c of CASES) {
    it(`${c.id} ${c.title}`, () => {
      const result = summary.results.find((r) => r.id === c.id);
      expect(result?.status, explain(result)).toBe("passed");
    });
  }

  it("PAYLOAD-002 checked the payload of every event the reference can deliver to a repository or organization hook", () => {
    const notes = summary.results.find((r) => r.id === "WEBHOOK-PAYLOAD-002")!.notes.join("\n");
    const checked = /payloads checked: (.*)/.exec(notes)?.[1]?.split(", ") ?? [];
    // `public` alone cannot reach them: the reference makes a new private repository public.
    expect(checked).toEqual(["commit_comment", "create", "delete", "deployment", "deployment_status", "fork", "gollum", "issue_comment", "issues", "member", "membership", "page_build", "pull_request", "pull_request_review_comment", "push", "release", "repository", "status", "team_add", "watch"]);
  });

  // Not a speed expectation (a busy machine makes every case slow): a case that waited out the whole
  // bound instead of returning when its delivery came takes at least the bound.
  it("no case waits out the whole delivery bound: deliveries are waited for only as long as they take", () => {
    const slow = summary.results.filter((r) => r.durationMs >= DELIVERY_BOUND_MS).map((r) => `${r.id} ${r.durationMs} ms`);
    expect(slow).toEqual([]);
  });
});

describe("webhook cases against a sound fake hooks service", () => {
  it(
    "every case passes (the fake is sound, so the defects below are what fail the cases)",
    async () => {
      // The fake keeps no delivery log, never retries and has no organization: the retry and
      // organization cases are proven against the reference and its broken variants
      // (broken-variants.test.ts), not here.
      const sound = CASES.filter((c) => !/^WEBHOOK-(RETRY|ORG)-/.test(c.id));
      const results = await againstFake({}, sound.map((c) => c.id));
      for (const c of sound) expect(results[c.id]?.status, explain(results[c.id])).toBe("passed");
    },
    RUN_TIMEOUT_MS,
  );
});

describe("webhook cases catch defects (fake hooks services with one defect each)", () => {
  it("a signature over re-serialized JSON fails the signature cases over the raw bytes, JSON and form", async () => {
    const ids = ["WEBHOOK-SIGNATURE-001", "WEBHOOK-SIGNATURE-002", "WEBHOOK-SIGNATURE-003", "WEBHOOK-SIGNATURE-004"];
    const results = await againstFake({ signature: "reserialized" }, ids);
    for (const id of ["WEBHOOK-SIGNATURE-001", "WEBHOOK-SIGNATURE-003", "WEBHOOK-SIGNATURE-004"]) {
      expect(results[id]?.status, explain(results[id])).toBe("failed");
      expect(results[id]!.failure!.pointer).toBe("/headers/x-hub-signature");
      expect(results[id]!.failure!.message).toMatch(/exact \d+ body bytes received.*re-serialized/);
    }
    // Without a secret there is nothing to sign: that case still passes.
    expect(results["WEBHOOK-SIGNATURE-002"]?.status, explain(results["WEBHOOK-SIGNATURE-002"])).toBe("passed");
  });

  it("no ping on creation fails WEBHOOK-PING-001; the ping endpoint case still passes, with a note", async () => {
    const results = await againstFake({ pingOnCreate: false }, ["WEBHOOK-PING-001", "WEBHOOK-PING-002"]);
    expect(results["WEBHOOK-PING-001"]?.status).toBe("failed");
    expect(results["WEBHOOK-PING-001"]!.failure!.message).toMatch(/the ping sent when the webhook was created: nothing matching arrived/);
    expect(results["WEBHOOK-PING-001"]!.failure!.curl).toMatch(/^curl .*-X POST .*\/hooks'/);
    expect(results["WEBHOOK-PING-002"]?.status, explain(results["WEBHOOK-PING-002"])).toBe("passed");
    expect(results["WEBHOOK-PING-002"]!.notes.join()).toMatch(/no ping arrived on creation/);
  });

  // The seed: "Unique ID of the delivery" — any non-empty string unique to the delivery (a counter
  // keeps it: see the fair variants, test/conformance/fair-variants-feeds.test.ts).
  it("an X-Service-Delivery that is a counter (not a UUID) passes WEBHOOK-HEADERS-001", async () => {
    const results = await againstFake({ deliveryId: "counter" }, ["WEBHOOK-HEADERS-001"]);
    expect(results["WEBHOOK-HEADERS-001"]?.status, explain(results["WEBHOOK-HEADERS-001"])).toBe("passed");
  });

  for (const [deliveryId, message] of [
    ["missing", /X-Service-Delivery is the delivery's ID \(a non-empty string\)/],
    ["repeated", /each delivery has its own X-Service-Delivery/],
  ] as const) {
    it(`an X-Service-Delivery that is ${deliveryId} fails WEBHOOK-HEADERS-001`, async () => {
      const results = await againstFake({ deliveryId }, ["WEBHOOK-HEADERS-001"]);
      const r = results["WEBHOOK-HEADERS-001"];
      expect(r?.status, explain(r)).toBe("failed");
      expect(r!.failure!.message).toMatch(message);
      expect(r!.failure!.pointer).toBe("/headers/x-service-delivery");
    });
  }

  it("an unsubscribed event delivered fails WEBHOOK-DEFAULT-001, naming the issues delivery", async () => {
    const results = await againstFake({ deliverUnsubscribed: true }, ["WEBHOOK-DEFAULT-001"]);
    const r = results["WEBHOOK-DEFAULT-001"];
    expect(r?.status, explain(r)).toBe("failed");
    expect(r!.failure!.message).toMatch(/push only/);
    expect(JSON.stringify(r!.failure!.actual)).toMatch(/X-Service-Event: issues/);
  });
});
