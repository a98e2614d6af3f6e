/** What every part of the comparison shares: the two contracts and one schema comparer (its memo spans the whole run). */
import type { Contract, Json, Location } from "./documents.ts";
import { isObject } from "./documents.ts";
import { SchemaDiff } from "./schema-diff.ts";

export interface DiffContext {
  base: Contract;
  head: Contract;
  schemas: SchemaDiff;
}

export function diffContext(base: Contract, head: Contract): DiffContext {
  return { base, head, schemas: new SchemaDiff(base, head) };
}

/** A node with its place, `$ref`s followed. */
export interface Placed {
  node: Record<string, Json>;
  loc: Location;
}

export function placed(contract: Contract, node: Json, loc: Location): Placed {
  const r = contract.deref(node, loc);
  return { node: isObject(r.node) ? r.node : {}, loc: r.loc };
}

/** `["paths", "/events", "get"]` → `#/paths/~1events/get`. */
export function pointer(...tokens: (string | number)[]): string {
  return "#" + tokens.map((t) => `/${String(t).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}
