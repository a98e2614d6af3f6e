/**
 * The contract's own choices, switchable per target. Every `D-` rule of spec/DECISIONS.md is a
 * choice the seed leaves open, so a target may have chosen otherwise: the profile's `decisions`
 * map turns a rule `off` (the suite then checks only what the seed says about that behaviour and
 * reports the decision as not checked), or — for the few choices with a natural value — declares
 * the value the target chose, which the suite then holds it to. Seed rules (`S-`) cannot be
 * switched: they are checked as the seed states them, on every target.
 */
import { decisionParents } from "../rules/load.ts";

/** What a profile may say of one decision: `on` (the default), `off`, or a declared value. */
export type DecisionSetting = "on" | "off" | DeclaredValue;
export type DeclaredValue = number | string | Record<string, unknown>;

export interface Declarable<T = unknown> {
  /** What the value means, for `conformance --list` and the profile's documentation. */
  describe: string;
  /** The contract's own choice, held to when the profile declares nothing. */
  contract: T;
  /** A one-line example of a declaration in a profile. */
  example: string;
}

/**
 * The decisions a target may declare a value for, instead of only switching them off. The
 * profile schema (spec/conformance-profile.schema.json) describes the same values; a test keeps
 * the two in step.
 */
export const DECLARABLE = {
  "D-RATE-RESET": {
    describe: "the hourly limits: { authenticated: N, anonymous: N } (X-RateLimit-Limit for a token and for no token)",
    contract: { authenticated: 5000, anonymous: 60 },
    example: "D-RATE-RESET: { authenticated: 1000, anonymous: 100 }",
  } as Declarable<{ authenticated: number; anonymous: number }>,
  "D-OAUTH-TOKEN-ERROR-STATUS": {
    describe: "the HTTP status of a token-endpoint error (the seed's error body in the Accept format either way)",
    contract: 200,
    example: "D-OAUTH-TOKEN-ERROR-STATUS: 400",
  } as Declarable<number>,
  "D-SIGNATURE": {
    describe: "the signature headers sent: sha1+sha256 (X-Hub-Signature and X-Hub-Signature-256), sha1 or sha256 (X-Hub-Signature only, with that prefix)",
    contract: "sha1+sha256",
    example: "D-SIGNATURE: sha256",
  } as Declarable<"sha1+sha256" | "sha1" | "sha256">,
  "D-ACTIVITY-ID": {
    describe: "the activity event id format: numeric (decimal digits, ordered by value) or opaque (any non-empty string, no order)",
    contract: "numeric",
    example: "D-ACTIVITY-ID: opaque",
  } as Declarable<"numeric" | "opaque">,
} as const;

export type DeclarableId = keyof typeof DECLARABLE;
type ValueOf<K extends DeclarableId> = (typeof DECLARABLE)[K] extends Declarable<infer T> ? T : never;

export function isDecision(ruleId: string): boolean {
  return ruleId.startsWith("D-");
}

/**
 * A run's view of the profile's `decisions`. A decision split from another (`split from D-…` in
 * its DECISIONS.md entry: D-HOOK-STATUSES from D-HOOK-ENDPOINTS) inherits the parent's `off`
 * when the profile does not name it, so a profile written before the split keeps meaning what it
 * meant; naming the new decision checks it apart.
 */
export class Decisions {
  private readonly settings: Readonly<Record<string, DecisionSetting>>;

  constructor(
    given: Readonly<Record<string, DecisionSetting>> = {},
    private readonly parents: Readonly<Record<string, string>> = decisionParents(),
  ) {
    const settings: Record<string, DecisionSetting> = { ...given };
    for (const id of Object.keys(parents)) if (!(id in given) && this.ancestorOff(id, given)) settings[id] = "off";
    this.settings = settings;
  }

  private ancestorOff(id: string, given: Readonly<Record<string, DecisionSetting>>): boolean {
    const seen = new Set<string>();
    for (let p = this.parents[id]; p && !seen.has(p); p = this.parents[p]) {
      seen.add(p);
      if (p in given) return given[p] === "off";
    }
    return false;
  }

  /** Decisions switched off only because the profile switches off the one they were split from: child → parent. */
  inherited(given: Readonly<Record<string, DecisionSetting>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const id of Object.keys(this.parents)) if (!(id in given) && this.settings[id] === "off") out[id] = this.parents[id]!;
    return out;
  }

  /** Whether the suite checks this rule: seed rules always; a decision unless the profile says `off`. */
  on(ruleId: string): boolean {
    return !isDecision(ruleId) || this.settings[ruleId] !== "off";
  }

  off(ruleId: string): boolean {
    return !this.on(ruleId);
  }

  /** The declared value, or the contract's own when the profile declares none. */
  value<K extends DeclarableId>(ruleId: K): ValueOf<K> {
    const given = this.settings[ruleId];
    const contract = DECLARABLE[ruleId].contract as ValueOf<K>;
    if (given === undefined || given === "on" || given === "off") return contract;
    if (typeof contract === "object" && typeof given === "object") return { ...contract, ...given } as ValueOf<K>;
    return given as ValueOf<K>;
  }

  /** The rules the profile switches off, sorted. */
  switchedOff(): string[] {
    return Object.keys(this.settings)
      .filter((id) => this.settings[id] === "off")
      .sort();
  }

  /** The declared values, for the report's header. */
  declared(): Record<string, DeclaredValue> {
    const out: Record<string, DeclaredValue> = {};
    for (const [id, v] of Object.entries(this.settings)) if (v !== "on" && v !== "off") out[id] = v;
    return out;
  }
}
