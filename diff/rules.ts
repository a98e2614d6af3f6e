/**
 * The rule table's changes: the seed's rules (`seed-rules.yaml`) and the decisions
 * (`DECISIONS.md`, IDs inline) beside each contract's root document, read the way the
 * conformance suite reads them (conformance/rules/load.ts). A rule added, removed or reworded
 * tells an implementer which conformance cases may now judge them differently, so each change
 * names the cases of this toolkit's suites that enforce the rule, and breaks the side those
 * cases judge (the server suite's cases judge servers, the receiver suite's receivers, the
 * OAuth client suite's clients). A rule removed, or moved under another heading, breaks nobody. Rewrapping a rule's text is no
 * change: whitespace is normalized.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { decisionEntries, seedRules, type Rule } from "../conformance/rules/load.ts";
import { fixedChange, type Audience, type Change } from "./change.ts";
import { ContractReadError, type Contract } from "./documents.ts";

interface PlacedRule extends Rule {
  /** `seed-rules.yaml#/3` or `DECISIONS.md:37`. */
  where: string;
}

interface RuleTable {
  rules: Map<string, PlacedRule>;
  /** Whether seed-rules.yaml is there (before it was, the seed's rules were not listed, yet were the seed's). */
  seedListed: boolean;
  /** The normalized text of each DECISIONS entry without an ID: one that gains an ID is no new rule. */
  unlabeled: Set<string>;
}

/** The contract's rules, or undefined when its folder has neither file (a bundle on its own). */
export function rulesOf(contract: Contract): RuleTable | undefined {
  const seedFile = join(contract.folder, "seed-rules.yaml");
  const decisionsFile = join(contract.folder, "DECISIONS.md");
  if (!existsSync(seedFile) && !existsSync(decisionsFile)) return undefined;
  const out = new Map<string, PlacedRule>();
  const unlabeled = new Set<string>();
  try {
    if (existsSync(seedFile)) seedRules(readFileSync(seedFile, "utf8")).forEach((r, i) => out.set(r.id, { ...r, where: `seed-rules.yaml#/${i}` }));
  } catch (error) {
    throw new ContractReadError(`${seedFile} is not valid YAML: ${(error as Error).message.split("\n")[0]}`);
  }
  if (existsSync(decisionsFile)) {
    for (const e of decisionEntries(readFileSync(decisionsFile, "utf8"))) {
      if (e.id) out.set(e.id, { id: e.id, source: "decisions", section: e.section, text: e.text, where: `DECISIONS.md:${e.line}` });
      else unlabeled.add(normal(e.text));
    }
  }
  return { rules: out, seedListed: existsSync(seedFile), unlabeled };
}

const normal = (text: string) => text.replace(/\s+/g, " ").trim();

/** Rule ID → the IDs of the cases that enforce it, and whom those cases judge. */
export type CaseIndex = (rule: string) => { cases: string[]; audience: Audience[] };

/** This toolkit's suites, loaded only when a rule changed (they take a second to import). */
export async function suiteCaseIndex(): Promise<CaseIndex> {
  const [{ ALL_CASES }, { RECEIVER_CASES }, { CLIENT_CASES }] = await Promise.all([
    import("../conformance/cases/index.ts"),
    import("../conformance/consumers/receiver/cases.ts"),
    import("../conformance/consumers/oauth-client/cases.ts"),
  ]);
  const suites: [Audience, readonly { id: string; rules?: readonly string[] }[]][] = [
    ["servers", ALL_CASES],
    ["receivers", RECEIVER_CASES],
    ["clients", CLIENT_CASES],
  ];
  return (rule) => {
    const cases: string[] = [];
    const audience: Audience[] = [];
    for (const [who, list] of suites) {
      const named = list.filter((c) => c.rules?.includes(rule)).map((c) => c.id);
      if (named.length > 0) audience.push(who);
      cases.push(...named);
    }
    return { cases, audience };
  };
}

/** The rule-table changes, or a note when one side has no rule table to compare. */
export async function compareRules(base: Contract, head: Contract, index: () => Promise<CaseIndex> = suiteCaseIndex): Promise<{ changes: Change[]; note?: string }> {
  const bTable = rulesOf(base);
  const hTable = rulesOf(head);
  if (!bTable || !hTable) return { changes: [], note: `the rule table was not compared: ${!bTable ? "the base" : "the head"} has no seed-rules.yaml or DECISIONS.md beside its root document` };
  const b = bTable.rules;
  const h = hTable.rules;
  const found: { id: string; what: "added" | "removed" | "changed" | "moved" | "identified"; rule: PlacedRule; message: string }[] = [];
  for (const id of [...new Set([...b.keys(), ...h.keys()])].sort()) {
    const br = b.get(id);
    const hr = h.get(id);
    const kind = id.startsWith("S-") ? "seed rule" : "decision";
    if (br && !hr) found.push({ id, what: "removed", rule: br, message: `${kind} ${id} removed: ${br.text}` });
    // An ID given to what was already there judges nothing new: a decision whose text the base
    // has without an ID, or a seed rule listed where the base listed none (the seed had it).
    else if (!br && hr && hr.source === "decisions" && bTable.unlabeled.has(normal(hr.text))) found.push({ id, what: "identified", rule: hr, message: `decision ${id}: an ID given to an existing decision (its text unchanged)` });
    else if (!br && hr && hr.source !== "decisions" && !bTable.seedListed) found.push({ id, what: "identified", rule: hr, message: `seed rule ${id} listed (the base listed no seed rules; the seed's rule is not new)` });
    else if (!br && hr) found.push({ id, what: "added", rule: hr, message: `${kind} ${id} added: ${hr.text}` });
    else if (br && hr && normal(br.text) !== normal(hr.text)) found.push({ id, what: "changed", rule: hr, message: `${kind} ${id} changed: ${hr.text}` });
    // A rule under another heading judges the same: listed, breaking nobody.
    else if (br && hr && br.section !== hr.section) found.push({ id, what: "moved", rule: hr, message: `${kind} ${id} moved from "${br.section}" to "${hr.section}"` });
  }
  if (found.length === 0) return { changes: [] };
  const casesOf = await index();
  const changes = found.map((f) => {
    const { cases, audience } = casesOf(f.id);
    const change = fixedChange(`rule-${f.what}`, f.what === "removed" || f.what === "moved" || f.what === "identified" ? [] : audience, f.rule.where, f.message);
    return { ...change, rule: f.id, cases };
  });
  return { changes };
}
