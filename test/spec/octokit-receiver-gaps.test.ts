/**
 * The other direction of the octokit cross-check (octokit-crosscheck.test.ts checks that our
 * schemas accept what the counterpart sends): what the reference sends, checked against the
 * counterpart's published schemas (`@octokit/webhooks-schemas`), as a receiver typed with
 * `@octokit/webhooks-types` would meet it. The deliveries are the ones a real reference server
 * sends over HTTP to a `*` hook, one for every event and action it can send
 * (scripts/octokit-gaps/deliveries.ts). README's table of what such a receiver will miss is
 * generated from this very cross-check (`npm run readme:octokit-gaps`): it fails when the table
 * is stale, when a missing field has no reason (scripts/octokit-gaps/reasons.ts), and when a
 * reason no longer matches anything.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { beforeAll, describe, expect, it } from "vitest";
import { OctokitSchemas } from "../../scripts/octokit-gaps/check.ts";
import { collectDeliveries, type Delivery } from "../../scripts/octokit-gaps/deliveries.ts";
import { COMMAND, crossCheckDeliveries, README, renderTable } from "../../scripts/octokit-gaps/main.ts";
import { between } from "../../scripts/octokit-gaps/readme.ts";
import { OTHER_REASONS, REASONS, reasonFor } from "../../scripts/octokit-gaps/reasons.ts";
import type { Gaps } from "../../scripts/octokit-gaps/table.ts";
import { validateWebhook, webhookEvents } from "../../generated/validators/index.js";
import { nodeId } from "../../reference/serialize/node-id.ts";
import { ceiling } from "../ceilings.ts";

const require = createRequire(import.meta.url);
let deliveries: Delivery[];
let gaps: Gaps;
const schemas = new OctokitSchemas();

beforeAll(async () => {
  deliveries = await collectDeliveries(ceiling(30_000));
  gaps = crossCheckDeliveries(deliveries, schemas);
  console.info(`octokit receiver gaps: ${gaps.deliveries} deliveries, ${gaps.passing} pass @octokit/webhooks-schemas; ${gaps.gaps.length} missing fields by place, ${gaps.others.length} other differences`);
}, ceiling(180_000));

describe("what the reference sends, against @octokit/webhooks-schemas", () => {
  it("covers every webhook event of the contract and every action the reference sends", () => {
    expect([...new Set(deliveries.map((d) => d.event))].sort()).toEqual([...webhookEvents].sort());
    const pairs = new Set(deliveries.map((d) => `${d.event}.${d.action ?? "-"}`));
    for (const action of ["opened", "assigned", "unassigned", "labeled", "unlabeled", "closed", "reopened"]) expect(pairs).toContain(`issues.${action}`);
    for (const action of ["opened", "assigned", "unassigned", "labeled", "unlabeled", "closed", "reopened", "synchronize"]) expect(pairs).toContain(`pull_request.${action}`);
    expect(pairs).toContain("membership.removed");
  });

  it("checks deliveries that are valid against our own contract (the gaps are theirs to fill, not our bugs)", () => {
    for (const d of deliveries) {
      const r = validateWebhook(d.event, d.payload);
      expect(r.valid, `${d.scenario}: ${JSON.stringify(r.valid ? [] : r.errors.slice(0, 3))}`).toBe(true);
    }
  });

  it("README's table is what the cross-check finds now", () => {
    const readme = readFileSync(README, "utf8");
    expect(between(readme), `README.md's octokit gaps table is stale: run ${COMMAND}`).toBe(renderTable(gaps));
  });

  it("every missing field has its reason", () => {
    const unexplained = gaps.gaps.filter((g) => !g.reason).map((g) => `${g.event} ${g.definition} ${g.parent}/${g.field}`);
    expect(unexplained, "add a reason in scripts/octokit-gaps/reasons.ts").toEqual([]);
  });

  it("every other difference (a type, a value, a field they forbid) has its reason", () => {
    expect(gaps.others.filter((o) => !o.reason).map((o) => `${o.event} ${o.path} ${o.kind}`), "add a reason in scripts/octokit-gaps/reasons.ts").toEqual([]);
  });

  it("every reason still explains a finding (the reasons cannot drift)", () => {
    const used = new Set<unknown>([...gaps.gaps.map((g) => g.reason), ...gaps.others.map((o) => o.reason)]);
    expect(REASONS.filter((r) => !used.has(r)).map((r) => `${r.definition} ${r.fields?.join(",") ?? "*"}`)).toEqual([]);
    expect(OTHER_REASONS.filter((r) => !used.has(r)).map((r) => `${r.event} ${r.path}`)).toEqual([]);
  });

  it("every reason names a rule that exists", () => {
    const decisions = readFileSync(new URL("../../spec/DECISIONS.md", import.meta.url), "utf8");
    const seedRules = readFileSync(new URL("../../spec/seed-rules.yaml", import.meta.url), "utf8");
    const missing = [...REASONS, ...OTHER_REASONS].filter((r) => !(r.rule.startsWith("S-") ? seedRules.includes(`id: ${r.rule}\n`) : decisions.includes(`[${r.rule}]`)));
    expect(missing.map((r) => r.rule)).toEqual([]);
  });
});

describe("the check of one delivery", () => {
  const groups = require("@octokit/webhooks-examples/api.github.com/index.json") as { name: string; examples: Record<string, any>[] }[];
  /** A published example their schema accepts (not all of theirs do: the examples are older than the schema). */
  const passing = () => {
    for (const g of groups.filter((x) => (webhookEvents as readonly string[]).includes(x.name))) {
      for (const example of g.examples) {
        const definition = schemas.definitionFor(g.name, typeof example.action === "string" ? example.action : null);
        if (definition && schemas.check(definition, example).valid) return { definition, example: structuredClone(example) };
      }
    }
    throw new Error("no published example passes @octokit/webhooks-schemas");
  };

  it("passes a payload their schema accepts, and finds nothing in it", () => {
    const { definition, example } = passing();
    expect(schemas.check(definition, example)).toEqual({ definition, valid: true, differences: [] });
  });

  it("names each missing required field at its place, and a wrong type apart, choosing the alternative the value meant", () => {
    const { definition, example } = passing();
    delete example.sender.node_id;
    delete example.repository.owner.login;
    example.repository.license = null; // their `license` is an object or null: null is one of the alternatives
    example.repository.name = 42;
    const r = schemas.check(definition, example);
    expect(r.valid).toBe(false);
    expect(r.differences.filter((d) => d.kind === "required").map((d) => `${d.definition} ${d.path}`).sort()).toEqual(["user /repository/owner/login", "user /sender/node_id"]);
    expect(r.differences.filter((d) => d.kind !== "required").map((d) => `${d.kind} ${d.path}`)).toEqual(["type /repository/name"]);
  });

  it("finds the reason of a field by definition, field and place", () => {
    expect(reasonFor("user", "login", "push:/repository/owner")?.rule).toBe("D-SCHEMA-PUSH-REPOSITORY-OWNER");
    expect(reasonFor("user", "login", "issues:/sender")).toBeUndefined();
    expect(reasonFor("status$event", "node_id", "status:/commit")?.rule).toBe("D-WEBHOOK-NODE-ID");
  });
});

describe("node_id in the counterpart's form (D-WEBHOOK-NODE-ID)", () => {
  it("is base64 of 0<length of type>:<type><id>, as the counterpart's legacy IDs", () => {
    // The counterpart's published IDs of user 1 and of repository 1296269 (octocat/Hello-World).
    expect(nodeId("User", 1)).toBe("MDQ6VXNlcjE=");
    expect(nodeId("Repository", 1296269)).toBe("MDEwOlJlcG9zaXRvcnkxMjk2MjY5");
  });

  it("is on every account, repository and organization the reference sends, unique per object", () => {
    const seen = new Map<string, string>();
    const visit = (value: unknown, path: string, event: string) => {
      if (Array.isArray(value)) return value.forEach((v, i) => visit(v, `${path}/${i}`, event));
      if (value === null || typeof value !== "object") return;
      const o = value as Record<string, unknown>;
      if (typeof o.id === "number" && typeof o.login === "string") expect(o.node_id, `${event} ${path}`).toBe(nodeId((o.type as "User" | undefined) ?? "Organization", o.id)); // the short organization form has no `type`
      if (typeof o.id === "number" && typeof o.full_name === "string") expect(o.node_id, `${event} ${path}`).toBe(nodeId("Repository", o.id));
      if (typeof o.node_id === "string") {
        const key = `${o.id}`;
        const held = seen.get(o.node_id as string);
        if (held !== undefined) expect(held, `${event} ${path}: one node_id, two ids`).toBe(key);
        seen.set(o.node_id as string, key);
      }
      for (const [k, v] of Object.entries(o)) visit(v, `${path}/${k}`, event);
    };
    for (const d of deliveries) visit(d.payload, "", d.scenario);
    expect(seen.size).toBeGreaterThan(20);
  });
});
