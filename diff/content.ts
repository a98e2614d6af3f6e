/**
 * Media types of a body (`content`) and the bodies themselves. A media type is a capability the
 * other side chooses: a client picks the request format and, with `Accept`, the response format
 * (the token endpoint's form, JSON and XML); a receiver picks its deliveries' `content_type`.
 * So a media type removed breaks that side (clients or receivers), and one added breaks the
 * servers, which must now produce or accept it. The schema under each media type both still
 * have is compared in the body's direction.
 */
import { child, isObject, type Json, type Location } from "./documents.ts";
import { fixedChange, toChange, type Change, type Flow } from "./change.ts";
import { placed, type DiffContext } from "./context.ts";

export type Owner = { operation?: string; webhook?: string };

/** `at`: pointer of the `content` object. */
export function compareContent(ctx: DiffContext, b: Json, bLoc: Location, h: Json, hLoc: Location, flow: Flow, at: string, owner: Owner, what: string): Change[] {
  const out: Change[] = [];
  const bMap = isObject(b) ? b : {};
  const hMap = isObject(h) ? h : {};
  const chooser = flow.name === "request" ? flow.writer : flow.reader;
  for (const type of [...new Set([...Object.keys(bMap), ...Object.keys(hMap)])].sort()) {
    const here = `${at}/${type.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (!(type in hMap)) {
      out.push(fixedChange(`${flow.name}-media-type-removed`, [chooser], here, `${what}: media type ${type} removed`, owner));
      continue;
    }
    if (!(type in bMap)) {
      out.push(fixedChange(`${flow.name}-media-type-added`, ["servers"], here, `${what}: media type ${type} added`, owner));
      continue;
    }
    const bm = placed(ctx.base, bMap[type], child(bLoc, type));
    const hm = placed(ctx.head, hMap[type], child(hLoc, type));
    const findings = ctx.schemas.compare(bm.node.schema ?? {}, child(bm.loc, "schema"), hm.node.schema ?? {}, child(hm.loc, "schema"));
    for (const f of findings) out.push(toChange({ ...f, message: `${what} (${type}): ${f.message}` }, flow, `${here}/schema`, owner));
  }
  return out;
}

/** A request body (of an operation, or a webhook's payload) given by its node, `$ref`s not yet followed. */
export function compareBody(ctx: DiffContext, b: Json | undefined, bLoc: Location, h: Json | undefined, hLoc: Location, flow: Flow, at: string, owner: Owner): Change[] {
  const what = flow.name === "webhook" ? "payload" : "request body";
  if (b === undefined && h === undefined) return [];
  if (b === undefined) {
    const body = placed(ctx.head, h, hLoc);
    const required = body.node.required === true;
    return [toChange({ kind: required ? "required-body-added" : "optional-body-added", effect: required ? "narrow" : "none", path: [], message: `${required ? "required" : "optional"} ${what} added` }, flow, at, owner)];
  }
  if (h === undefined) return [toChange({ kind: "body-removed", effect: "widen", requestEffect: "narrow", path: [], message: `${what} removed` }, flow, at, owner)];
  const bb = placed(ctx.base, b, bLoc);
  const hb = placed(ctx.head, h, hLoc);
  const out: Change[] = [];
  const bReq = bb.node.required === true;
  const hReq = hb.node.required === true;
  if (bReq && !hReq) out.push(toChange({ kind: "body-became-optional", effect: "widen", path: [], message: `${what} is no longer required` }, flow, at, owner));
  if (!bReq && hReq) out.push(toChange({ kind: "body-became-required", effect: "narrow", path: [], message: `${what} is now required` }, flow, at, owner));
  out.push(...compareContent(ctx, bb.node.content, child(bb.loc, "content"), hb.node.content, child(hb.loc, "content"), flow, `${at}/content`, owner, what));
  return out;
}
