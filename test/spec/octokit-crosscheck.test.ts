/**
 * Our webhook payload schemas against the counterpart's published ones (`@octokit/webhooks-schemas`)
 * and its published example payloads (`@octokit/webhooks-examples`): what we did not write.
 *
 * For every in-scope event and each of its actions the cross-check lists every field we require
 * that they do not, every type (null included) they allow and we refuse, and every string enum
 * narrower than theirs (octokit-crosscheck.ts). Each must have its reason in spec/DECISIONS.md,
 * in the machine-read list between the `stricter-than-published` markers, with the seed line it
 * rests on; a reason that no longer matches a finding fails too, so the list cannot drift.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateWebhook, webhookEvents } from "../../generated/validators/index.js";
import { crossCheck, format, type EventFinding } from "./octokit-crosscheck.ts";
import { compare, documentResolver, expand, fileResolver, noFacts, rootFacts } from "./schema-strictness.ts";

const root = join(import.meta.dirname, "../..");
const require = createRequire(import.meta.url);
const decisions = readFileSync(join(root, "spec/DECISIONS.md"), "utf8");
const seedFile = join(root, "../shared/seed/service-interface-spec.md");

interface Reason {
  events: string[];
  pointer: string;
  kind: string;
  why: string;
  seed: string;
  line: string;
}

function reasons(): Reason[] {
  const start = decisions.indexOf("<!-- stricter-than-published");
  const end = decisions.indexOf("<!-- /stricter-than-published -->");
  if (start < 0 || end < start) throw new Error("spec/DECISIONS.md has no stricter-than-published list");
  return decisions
    .slice(start, end)
    .split("\n")
    .filter((l) => /^\s+- `/.test(l))
    .map((line) => {
      const m = /^\s+- `([a-z_,]+)` `([^`]+)` (requires|null|type|enum) — (.+?) Seed: "(.+)"$/.exec(line);
      if (!m) throw new Error(`unreadable reason line in spec/DECISIONS.md: ${line}`);
      return { events: m[1]!.split(","), pointer: m[2]!, kind: m[3]!, why: m[4]!, seed: m[5]!, line: line.trim() };
    });
}

const compared: string[] = [];
const findings = crossCheck(compared);
const listed = reasons();
const reasonFor = (f: EventFinding) => listed.find((r) => r.events.includes(f.event) && r.pointer === f.pointer && r.kind === f.kind);

describe("cross-check against @octokit/webhooks-schemas", () => {
  it("compares every in-scope event, each action they publish", () => {
    const events = new Set(compared.map((c) => c.split(".")[0]));
    expect([...events].sort()).toEqual([...webhookEvents].sort());
    expect(compared).toEqual(expect.arrayContaining(["issues.reopened", "pull_request_review_comment.created", "ping.event", "membership.removed", "deployment_status.created"]));
    const perEvent = [...events].map((e) => `${e}: ${findings.filter((f) => f.event === e).length}`);
    console.info(`compared ${compared.length} event/action pairs; stricter fields with a recorded reason — ${perEvent.join(", ")}`);
  });

  it.each(webhookEvents.map((e) => [e]))("%s: every field where we are stricter has its reason in DECISIONS.md", (event) => {
    const mine = findings.filter((f) => f.event === event);
    const unexplained = mine.filter((f) => !reasonFor(f)).map(format);
    expect(unexplained, `stricter than @octokit/webhooks-schemas without a reason in spec/DECISIONS.md:\n${unexplained.join("\n")}`).toEqual([]);
  });

  it("every listed reason still matches a finding (the list cannot drift)", () => {
    const stale = listed.filter((r) => !findings.some((f) => r.events.includes(f.event) && r.pointer === f.pointer && r.kind === f.kind));
    expect(stale.map((r) => r.line)).toEqual([]);
  });

  it.runIf(existsSync(seedFile))("every reason quotes a line of the seed verbatim", () => {
    const seed = readFileSync(seedFile, "utf8");
    expect(listed.filter((r) => !seed.includes(r.seed)).map((r) => r.line)).toEqual([]);
  });

  it("finds what it is built to find (a schema stricter than theirs is reported)", async () => {
    // The comparison is not vacuous: the seed-backed reasons above are real findings.
    expect(findings.some((f) => f.event === "issues" && f.pointer === "/label" && f.kind === "requires")).toBe(true);
    expect(findings.some((f) => f.event === "issues" && f.action === "*" && f.pointer === "/action")).toBe(true);
  });
});

describe("the strictness comparison itself", () => {
  it("reports a required field, a refused null, a narrower enum and a presence rule tied to another field", () => {
    const ours = {
      $id: "https://x.test/ours.json",
      type: "object",
      required: ["id", "state"],
      properties: {
        id: { type: "integer" },
        state: { enum: ["open", "closed"] },
        closed_at: { type: ["string", "null"] },
        body: { type: "string" },
        extra: { type: "string" },
      },
      if: { required: ["state"], properties: { state: { const: "open" } } },
      then: { properties: { closed_at: { type: "null" } } },
    };
    const theirs = {
      definitions: {
        x: {
          type: "object",
          required: ["state"],
          properties: { id: { type: "integer" }, state: { type: "string", enum: ["open", "closed", "draft"] }, closed_at: { type: ["string", "null"] }, body: { type: ["string", "null"] } },
        },
      },
    };
    const o = fileResolver(new Map([[ours.$id, ours]]));
    const t = documentResolver(theirs);
    const theirAlts = expand(t.resolve("#/definitions/x", ""), t, noFacts);
    const found = compare(expand({ s: ours, base: ours.$id }, o, rootFacts(theirAlts, t)), theirAlts, { ours: o, theirs: t });
    expect(found.map((f) => `${f.pointer} ${f.kind}`).sort()).toEqual(["/body null", "/closed_at type", "/id requires", "/state enum"]);
    expect(found.find((f) => f.pointer === "/closed_at")!.when).toMatch(/state in \["open"\]/);
  });
});

interface ExampleGroup {
  name: string;
  examples: Record<string, unknown>[];
}

describe("the counterpart's published example payloads (@octokit/webhooks-examples)", () => {
  const groups = require("@octokit/webhooks-examples/api.github.com/index.json") as ExampleGroup[];
  const inScope = groups.filter((g) => (webhookEvents as readonly string[]).includes(g.name));
  const cases = inScope.flatMap((g) => g.examples.map((payload, i) => ({ event: g.name, i, payload, action: payload.action as string | undefined })));
  // An action outside the seed's list is refused on `/action` alone (its reason is listed above).
  const actionRefused = (c: (typeof cases)[number]) => {
    const r = validateWebhook(c.event, c.payload);
    return !r.valid && r.errors.some((e) => e.path === "/action");
  };

  it("covers the published examples of every in-scope event", () => {
    expect(new Set(inScope.map((g) => g.name)).size).toBe(webhookEvents.length);
  });

  it.each(cases.map((c) => [`${c.event}${c.action ? `.${c.action}` : ""} #${c.i}`, c] as const))("%s", (_label, c) => {
    const r = validateWebhook(c.event, c.payload);
    // The only refusal allowed is of an action the seed does not list (on `/action`, whose reason
    // is listed above); every payload of an action we describe passes.
    if (!r.valid) expect(actionRefused(c), JSON.stringify(r.errors.slice(0, 5))).toBe(true);
  });

  it("passes every published example of an in-scope event and action", () => {
    const described = cases.filter((c) => !actionRefused(c));
    const passed = described.filter((c) => validateWebhook(c.event, c.payload).valid);
    console.info(`@octokit/webhooks-examples: ${passed.length}/${described.length} in-scope payloads pass (${cases.length - described.length} of other actions refused on /action)`);
    expect(passed.length).toBe(described.length);
    expect(described.length).toBeGreaterThan(100);
  });
});
