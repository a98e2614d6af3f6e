/**
 * The rules the suite answers for, read from where they are written once: the seed's rules from
 * spec/seed-rules.yaml (the seed itself lives outside the repository), the decisions from
 * spec/DECISIONS.md, where each entry carries its ID inline (`- [D-RATE-RESET] **…**`), and
 * where each rule lives in the reference — or why no case can check it from outside — from
 * spec/rule-coverage.yaml. Which cases enforce a rule is not written here: each case declares its
 * rule IDs (`rules` on the Case), and conformance/rules/table.ts joins the three.
 */
import { packageFile } from "../../generators/package-files.ts";
import { readFileSync } from "node:fs";
import { parse } from "yaml";

export interface Rule {
  id: string;
  source: "seed" | "decisions";
  /** The seed section, or the DECISIONS.md heading the entry is under. */
  section: string;
  text: string;
  /** The decision this one was split from (`split from D-…` in its entry): a profile that switches the parent off and names not this one switches this one off too. */
  parent?: string;
}

/** `split from D-…` in a DECISIONS.md entry: its lineage. */
const SPLIT_FROM = /\bsplit from (D-[A-Z0-9-]+)\b/;

export interface Coverage {
  /** Files (repository-relative, optionally `#symbol`) where the reference implements the rule. */
  ref?: string[];
  /** Why no conformance case can check the rule from outside the implementation. */
  unchecked?: string;
  /** The rule could be checked from outside but no case does yet: a to-do, shown as such. */
  gap?: string;
}

/** `- [D-…]` at the start of a DECISIONS.md entry; entries without one are reported by the table test. */
export const DECISION_ID = /^- \[(D-[A-Z0-9-]+)\] /;

function specFile(name: string): string {
  return readFileSync(packageFile("spec", name), "utf8");
}

export function seedRules(yamlText = specFile("seed-rules.yaml")): Rule[] {
  const list = (parse(yamlText) ?? []) as { id: string; section: string; text: string }[];
  return list.map((r) => ({ id: r.id, source: "seed", section: r.section, text: r.text }));
}

/** Every top-level entry of DECISIONS.md with its ID (or `undefined` when it has none yet), heading and text. */
export function decisionEntries(markdown = specFile("DECISIONS.md")): { id: string | undefined; section: string; text: string; line: number }[] {
  const out: { id: string | undefined; section: string; text: string; line: number }[] = [];
  let section = "";
  let current: (typeof out)[number] | undefined;
  markdown.split("\n").forEach((line, i) => {
    const heading = /^#+ (.*)$/.exec(line);
    if (heading) {
      section = heading[1]!;
      current = undefined;
    } else if (line.startsWith("- ")) {
      const id = DECISION_ID.exec(line)?.[1];
      current = { id, section, text: line.slice(2).replace(DECISION_ID, "").replace(/^\[[^\]]*\] /, ""), line: i + 1 };
      out.push(current);
    } else if (current && /^\s+\S/.test(line)) current.text += ` ${line.trim()}`;
    else current = undefined;
  });
  return out;
}

export function decisionRules(markdown?: string): Rule[] {
  return decisionEntries(markdown).flatMap((e) => {
    if (!e.id) return [];
    const parent = SPLIT_FROM.exec(e.text)?.[1];
    return [{ id: e.id, source: "decisions" as const, section: e.section, text: e.text, ...(parent && parent !== e.id ? { parent } : {}) }];
  });
}

let parents: Readonly<Record<string, string>> | undefined;

/** Each split decision's parent, read once from DECISIONS.md. */
export function decisionParents(): Readonly<Record<string, string>> {
  parents ??= Object.fromEntries(decisionRules().flatMap((r) => (r.parent ? [[r.id, r.parent]] : [])));
  return parents;
}

export function allRules(): Rule[] {
  return [...seedRules(), ...decisionRules()];
}

export function coverage(): Record<string, Coverage> {
  return (parse(specFile("rule-coverage.yaml")) ?? {}) as Record<string, Coverage>;
}
