/**
 * Parameters of an operation (path, query, header, cookie) and the headers a webhook delivery
 * carries (written as header parameters of the webhook's `post`), compared by location and name
 * (header names without case). Which side is hurt comes from the flow: an operation's
 * parameters are a request (clients write them), a delivery's headers are sent by the service.
 */
import { child, type Contract, type Json, type Location } from "./documents.ts";
import { toChange, type Change, type Finding, type Flow } from "./change.ts";
import { placed, type DiffContext, type Placed } from "./context.ts";

export interface Parameter extends Placed {
  key: string;
  name: string;
  in: string;
  required: boolean;
  /** Where the parameter is listed (`#/paths/~1events/get/parameters/0`): the head's, or the base's for one removed. */
  listed: string;
}

/** `/repos/{owner}/{hook_id}` → `/repos/{}/{}`: the same URLs whatever its variables are called. */
export function templateShape(path: string): string {
  return path.replace(/\{[^}]*\}/g, "{}");
}

/**
 * The parameters of a path item and its operation (the operation's override the item's). With
 * the path `template`, a path parameter is keyed by its place in the template, not its name:
 * `{hook_id}` renamed `{id}` is the same parameter (the same URLs), compared as such.
 */
export function parametersOf(contract: Contract, lists: { node: Json; loc: Location }[], template?: string): Parameter[] {
  const variables = template === undefined ? [] : [...template.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  const byKey = new Map<string, Parameter>();
  for (const list of lists) {
    if (!Array.isArray(list.node)) continue;
    list.node.forEach((p, i) => {
      const r = placed(contract, p, child(list.loc, i));
      const name = String(r.node.name ?? "");
      const where = String(r.node.in ?? "");
      const place = where === "path" ? variables.indexOf(name) : -1;
      const key = place >= 0 ? `path:#${place}` : `${where}:${where === "header" ? name.toLowerCase() : name}`;
      byKey.set(key, { ...r, key, name, in: where, required: where === "path" || r.node.required === true, listed: `#${list.loc.pointer}/${i}` });
    });
  }
  return [...byKey.values()];
}

export function compareParameters(ctx: DiffContext, bList: Parameter[], hList: Parameter[], flow: Flow, owner: { operation?: string; webhook?: string }): Change[] {
  const out: Change[] = [];
  const bMap = new Map(bList.map((p) => [p.key, p]));
  const hMap = new Map(hList.map((p) => [p.key, p]));
  const what = (p: Parameter) => (p.in === "header" ? `header ${p.name}` : `${p.in} parameter ${p.name}`);
  const emit = (f: Finding, pointerBase: string) => out.push(toChange(f, flow, pointerBase, owner));
  for (const key of [...new Set([...bMap.keys(), ...hMap.keys()])].sort()) {
    const b = bMap.get(key);
    const h = hMap.get(key);
    const param = (h ?? b)!.listed;
    if (b && !h) {
      emit({ kind: "parameter-removed", effect: "widen", requestEffect: "narrow", path: [], message: `${b.required ? "required " : ""}${what(b)} removed`, source: ctx.base.shown(b.loc) }, param);
    } else if (!b && h) {
      emit({ kind: h.required ? "required-parameter-added" : "optional-parameter-added", effect: h.required ? "narrow" : "none", path: [], message: `${h.required ? "required" : "optional"} ${what(h)} added`, source: ctx.head.shown(h.loc) }, param);
    } else if (b && h) {
      if (b.required && !h.required) emit({ kind: "parameter-became-optional", effect: "widen", path: [], message: `${what(h)} is no longer required`, source: ctx.head.shown(h.loc) }, param);
      if (!b.required && h.required) emit({ kind: "parameter-became-required", effect: "narrow", path: [], message: `${what(h)} is now required`, source: ctx.head.shown(h.loc) }, param);
      for (const kw of ["style", "explode", "allowReserved"]) {
        if (b.node[kw] !== h.node[kw]) emit({ kind: "parameter-serialization-changed", effect: "both", path: [], message: `${what(h)}: ${kw} changed`, source: ctx.head.shown(h.loc) }, param);
      }
      const findings = ctx.schemas.compare(b.node.schema ?? {}, child(b.loc, "schema"), h.node.schema ?? {}, child(h.loc, "schema"));
      for (const f of findings) emit({ ...f, kind: `parameter-${f.kind}`, message: `${what(h)}: ${f.message}` }, `${param}/schema`);
    }
  }
  return out;
}
