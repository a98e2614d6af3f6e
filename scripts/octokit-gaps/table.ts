/**
 * From the checked deliveries to the README section: what a receiver typed with
 * `@octokit/webhooks-types` will miss. Missing fields are grouped by the definition of theirs
 * they belong to (`user`, `repository`…), so a field missing on every user is one line, not
 * seventy; each group with the places it appears and its reason (reasons.ts). Then one row per
 * event, and the other differences (types, enums, fields their schema forbids) kept apart.
 */
import type { Delivery } from "./deliveries.ts";
import type { DeliveryCheck, Difference } from "./check.ts";
import { otherReasonFor, reasonFor, ruleLink, type OtherReason, type Reason } from "./reasons.ts";

export interface Checked {
  delivery: Delivery;
  check: DeliveryCheck;
}

/** One missing field at one place: `user` `node_id` at `push:/sender`. */
export interface Gap {
  event: string;
  definition: string;
  field: string;
  /** Where the object that lacks it is, array indexes as `*` (`/issue/labels/*`). */
  parent: string;
  reason: Reason | undefined;
}

export interface Other {
  event: string;
  kind: Difference["kind"];
  path: string;
  detail: string;
  reason: OtherReason | undefined;
}

export interface Gaps {
  deliveries: number;
  passing: number;
  /** Deliveries and how many pass, by event. */
  byEvent: Map<string, { deliveries: number; passing: number }>;
  events: string[];
  gaps: Gap[];
  others: Other[];
}

const star = (path: string) => path.replace(/\/\d+(?=\/|$)/g, "/*");

export function gapsOf(checked: readonly Checked[]): Gaps {
  const gaps = new Map<string, Gap>();
  const others = new Map<string, Other>();
  for (const { delivery, check } of checked) {
    const event = delivery.event;
    for (const d of check.differences) {
      const path = star(d.path);
      if (d.kind === "required") {
        const cut = path.lastIndexOf("/");
        const field = path.slice(cut + 1);
        const parent = path.slice(0, cut) || "/";
        const key = `${event} ${d.definition} ${parent} ${field}`;
        if (!gaps.has(key)) gaps.set(key, { event, definition: d.definition, field, parent, reason: reasonFor(d.definition, field, `${event}:${parent}`) });
      } else {
        const detail = d.detail ?? "";
        // Fields their schema forbids are one line per object, not one per field.
        const key = d.kind === "additional" ? `${event} additional ${path.slice(0, path.lastIndexOf("/"))}` : `${event} ${d.kind} ${path} ${detail}`;
        const held = others.get(key);
        if (d.kind === "additional" && held) held.detail = [...new Set([...held.detail.split(", "), path.slice(path.lastIndexOf("/") + 1)])].join(", ");
        else if (!held) {
          const other = d.kind === "additional" ? { event, kind: d.kind, path: path.slice(0, path.lastIndexOf("/")) || "/", detail: path.slice(path.lastIndexOf("/") + 1) } : { event, kind: d.kind, path, detail };
          others.set(key, { ...other, reason: otherReasonFor(event, other.path) });
        }
      }
    }
  }
  const byEvent = new Map<string, { deliveries: number; passing: number }>();
  for (const { delivery, check } of checked) {
    const counts = byEvent.get(delivery.event) ?? byEvent.set(delivery.event, { deliveries: 0, passing: 0 }).get(delivery.event)!;
    counts.deliveries++;
    if (check.valid) counts.passing++;
  }
  return {
    deliveries: checked.length,
    passing: checked.filter((c) => c.check.valid).length,
    byEvent,
    events: [...new Set(checked.map((c) => c.delivery.event))].sort(),
    gaps: [...gaps.values()],
    others: [...others.values()],
  };
}

const code = (s: string) => `\`${s}\``;
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Fields listed in full up to this many; longer lists show the first ones and a count. */
const LIST = 40;

function fieldList(fields: string[]): string {
  return fields.map(code).join(", ");
}

/** The `where` cell: `push /sender, …` grouped by event, shortened when long. */
function places(gaps: Gap[]): string {
  const byEvent = new Map<string, Set<string>>();
  for (const g of gaps) (byEvent.get(g.event) ?? byEvent.set(g.event, new Set()).get(g.event)!).add(g.parent);
  if (byEvent.size > 3) {
    const count = [...byEvent.values()].reduce((n, s) => n + s.size, 0);
    return `${count} places in ${byEvent.size} events`;
  }
  return [...byEvent.entries()]
    .sort(([a], [b]) => byName(a, b))
    .map(([event, parents]) => `${event}: ${[...parents].sort(byName).map(code).join(", ")}`)
    .join("; ");
}

function reasonCell(reason: Pick<Reason, "why" | "rule"> | undefined): string {
  return reason ? `${reason.why} (${ruleLink(reason.rule)})` : "**no reason recorded**";
}

/** Rows of the object table: one per definition and set of fields missing at the same places. */
function objectRows(gaps: Gap[]): string[] {
  const rows: { definition: string; fields: string[]; where: Gap[]; reason: Reason | undefined }[] = [];
  const definitions = [...new Set(gaps.map((g) => g.definition))].sort(byName);
  for (const definition of definitions) {
    const mine = gaps.filter((g) => g.definition === definition);
    // Fields that are missing at the same places and for the same reason share a row.
    const groups = new Map<string, { fields: string[]; where: Gap[]; reason: Reason | undefined }>();
    for (const field of [...new Set(mine.map((g) => g.field))]) {
      const where = mine.filter((g) => g.field === field);
      const reason = where[0]!.reason;
      const key = `${where.map((g) => `${g.event}:${g.parent}`).sort().join(" ")} ${reason?.rule ?? ""} ${reason?.why ?? ""}`;
      const group = groups.get(key) ?? groups.set(key, { fields: [], where, reason }).get(key)!;
      group.fields.push(field);
    }
    for (const g of groups.values()) rows.push({ definition, ...g });
  }
  return rows
    .sort((a, b) => byName(a.definition, b.definition) || b.where.length - a.where.length || byName(a.fields[0]!, b.fields[0]!))
    .map((r) => {
      const shown = r.fields.length > LIST ? `${fieldList(r.fields.slice(0, LIST))} and ${r.fields.length - LIST} more` : fieldList(r.fields);
      return `| ${code(r.definition)} | ${shown} | ${places(r.where)} | ${reasonCell(r.reason)} |`;
    });
}

/** Rows of the event table: which of their objects fall short, and the event's own fields. */
function eventRows(result: Gaps): string[] {
  return result.events.map((event) => {
    const mine = result.gaps.filter((g) => g.event === event);
    const objects = [...new Set(mine.filter((g) => !g.definition.includes("$")).map((g) => g.definition))].sort(byName);
    const own = [...new Set(mine.filter((g) => g.definition.includes("$")).map((g) => `${g.parent === "/" ? "" : g.parent}/${g.field}`))].sort(byName);
    const mineOther = result.others.filter((o) => o.event === event);
    const others = mineOther.length;
    const counts = result.byEvent.get(event)!;
    const rules = [...new Set([...mine.map((g) => g.reason?.rule ?? "?"), ...mineOther.map((o) => o.reason?.rule ?? "?")])].sort(byName).map((r) => (r === "?" ? "**?**" : ruleLink(r)));
    const ownCell = own.length > 12 ? `${own.slice(0, 12).map(code).join(", ")} and ${own.length - 12} more` : own.map(code).join(", ");
    return `| ${code(event)} | ${counts.passing} of ${counts.deliveries} | ${objects.map(code).join(", ") || "—"} | ${ownCell || "—"} | ${others || "—"} | ${rules.join(", ") || "—"} |`;
  });
}

function otherRows(result: Gaps): string[] {
  return [...result.others]
    .sort((a, b) => byName(a.event, b.event) || byName(a.path, b.path) || byName(a.kind, b.kind))
    .map((o) => `| ${code(o.event)} | ${code(o.path)} | ${o.kind === "additional" ? "fields their schema does not allow" : o.kind} | ${o.kind === "additional" ? fieldList(o.detail.split(", ")) : o.detail.replace(/\|/g, "\\|")} | ${reasonCell(o.reason)} |`);
}

/** The generated part of the README section (between its markers). */
export function renderGaps(result: Gaps, version: string, command: string): string {
  const lines = [
    `Generated by \`${command}\` from the deliveries the reference sends (one for every event and action it can send, ${result.deliveries} in all, over a real hook) checked against \`@octokit/webhooks-schemas\` ${version}: **${result.passing} of ${result.deliveries} pass**. A receiver typed with \`@octokit/webhooks-types\` ${version} gets \`undefined\` for every field below, though its types promise a value.`,
    "",
    "Fields their schemas require that our objects lack, by their definition of the object (the same field missing on every user is one row):",
    "",
    "| their definition | missing fields | where | why we do not send them |",
    "|---|---|---|---|",
    ...objectRows(result.gaps),
    "",
    "By event (a definition with `$` is the event's own payload: its fields are listed as paths):",
    "",
    "| event | deliveries that pass | objects short of fields | the payload's own missing fields | other differences | rules |",
    "|---|---|---|---|---|---|",
    ...eventRows(result),
    "",
    "Other differences (not a missing field: a type, a value, or a field their schema does not allow):",
    "",
    "| event | where | kind | theirs | why |",
    "|---|---|---|---|---|",
    ...otherRows(result),
  ];
  return lines.join("\n");
}
