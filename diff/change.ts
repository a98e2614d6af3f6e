/**
 * What `diff` reports, and the one rule that turns a change's effect into who it breaks.
 *
 * Every message passes between a writer and a reader: a request is written by clients and read
 * by servers; a response is written by servers and read by clients; a webhook payload is
 * written by servers (the service that sends it) and read by receivers. A change that lets the
 * writer send more than before (a widening: a removed field, a required field made optional, a
 * wider type, a new enum value) breaks the reader, who now meets values it was never told
 * about. A change that lets the writer send less (a narrowing: a new required field, a narrower
 * type or pattern, a removed enum value) breaks the writer, whose messages may now be refused.
 * A change that is neither (a pattern replaced by an incomparable one) breaks both. Where
 * inclusion cannot be decided (a pattern with a backreference, or past the comparison's bound),
 * the change is of its own level, "unknown": not breaking, not safe, and failing a pipeline by
 * default (`--fail-on unknown`). The docs (diff/README.md) list every kind.
 */

export type Audience = "clients" | "servers" | "receivers";
export const AUDIENCES: readonly Audience[] = ["clients", "servers", "receivers"];

/** Which way a message goes: who writes it and who reads it. */
export interface Flow {
  name: "request" | "response" | "webhook";
  writer: Audience;
  reader: Audience;
}

export const REQUEST: Flow = { name: "request", writer: "clients", reader: "servers" };
export const RESPONSE: Flow = { name: "response", writer: "servers", reader: "clients" };
export const WEBHOOK: Flow = { name: "webhook", writer: "servers", reader: "receivers" };

/**
 * `widen`: the writer may send more; `narrow`: less; `both`: neither contains the other;
 * `none`: nothing anyone relies on moved (reported, but breaks nobody); `unknown`: whether
 * either set contains the other cannot be decided (a pattern that is no regular language, or
 * past the comparison's bound): reported as such, with whom it may break and why.
 */
export type Effect = "widen" | "narrow" | "both" | "none" | "unknown";

export function audienceOf(effect: Effect, flow: Flow): Audience[] {
  switch (effect) {
    case "widen":
      return [flow.reader];
    case "narrow":
      return [flow.writer];
    case "both":
      return sortAudiences([flow.writer, flow.reader]);
    case "none":
    case "unknown":
      return [];
  }
}

/** The three levels a change is reported at (`--fail-on` picks the one that fails a run). */
export type Level = "breaking" | "unknown" | "safe";

export function sortAudiences(list: Iterable<Audience>): Audience[] {
  const set = new Set(list);
  return AUDIENCES.filter((a) => set.has(a));
}

/** One change between the two contracts, as the JSON output carries it under `changes`. */
export interface Change {
  /** A stable name of the kind of change (`response-property-removed`); diff/README.md lists them all. */
  kind: string;
  breaking: boolean;
  /** `breaking` (it breaks someone), `unknown` (whether it does cannot be decided: see `reason`) or `safe`. */
  level: Level;
  /** Whom it breaks; empty when it breaks nobody. */
  for: Audience[];
  operation?: string;
  webhook?: string;
  /** The rule ID, for a change of the rule table. */
  rule?: string;
  /** Where the change is, as a JSON pointer into the root document (`#/paths/~1events/get/…`); the head's, or the base's for what was removed. */
  pointer: string;
  /** The file and pointer where the changed node is written, when it is not the root document's own node (`schemas/user.json#/properties/login`). */
  source?: string;
  message: string;
  /** For a rule-table change: the conformance cases that enforce the rule. */
  cases?: string[];
  /** For a change of level `unknown`: whom it may break. Such a change is not `breaking`. */
  mayBreak?: Audience[];
  /** For a change of level `unknown`: why it cannot be decided. */
  reason?: string;
}

/** A change as found, before it is tied to an operation or webhook. */
export interface Finding {
  kind: string;
  effect: Effect;
  /** Pointer tokens below the place the finder was given. */
  path: (string | number)[];
  message: string;
  source?: string;
  /**
   * The effect when the message is a request, where it differs: a removed field or parameter,
   * or a changed default, changes what a client's request means, whatever the set of values does.
   */
  requestEffect?: Effect;
  /** For an `unknown` effect: why it cannot be decided. */
  reason?: string;
}

export function toChange(f: Finding, flow: Flow, base: string, owner: { operation?: string; webhook?: string }): Change {
  const effect = flow.name === "request" && f.requestEffect ? f.requestEffect : f.effect;
  const audience = audienceOf(effect, flow);
  return {
    kind: `${flow.name}-${f.kind}`,
    breaking: audience.length > 0,
    level: audience.length > 0 ? "breaking" : effect === "unknown" ? "unknown" : "safe",
    for: audience,
    ...(effect === "unknown" ? { mayBreak: sortAudiences([flow.writer, flow.reader]), ...(f.reason ? { reason: f.reason } : {}) } : {}),
    ...owner,
    pointer: base + f.path.map((t) => `/${String(t).replace(/~/g, "~0").replace(/\//g, "~1")}`).join(""),
    ...(f.source !== undefined ? { source: f.source } : {}),
    message: f.message,
  };
}

/** A change whose audience is fixed by its kind rather than by a message's direction. */
export function fixedChange(kind: string, audience: Audience[], pointer: string, message: string, owner: { operation?: string; webhook?: string } = {}): Change {
  const list = sortAudiences(audience);
  return { kind, breaking: list.length > 0, level: list.length > 0 ? "breaking" : "safe", for: list, ...owner, pointer, message };
}
