/**
 * An operation's responses: the status codes, the headers each declares (ETag, Link,
 * X-Poll-Interval, X-RateLimit-*, …) and their bodies. A response is written by the server and
 * read by the client, so:
 *   - a status removed breaks servers that send it (they must stop); a success or redirect status
 *     added (1XX–3XX, `default`) breaks clients, which meet an answer they were not written for;
 *     an error status added (4XX/5XX) breaks nobody: clients handle errors by their shared shape;
 *   - a header removed, or made optional, breaks clients that read it; a required header added,
 *     or made required, breaks servers, which must now send it; an optional one added breaks
 *     nobody; a header's schema is compared like any response value.
 */
import { child, isObject, type Json, type Location } from "./documents.ts";
import { fixedChange, RESPONSE, toChange, type Change } from "./change.ts";
import { compareContent, type Owner } from "./content.ts";
import { placed, type DiffContext, type Placed } from "./context.ts";

function escape(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

function isError(status: string): boolean {
  return /^[45]/.test(status);
}

export function compareResponses(ctx: DiffContext, b: Json, bLoc: Location, h: Json, hLoc: Location, at: string, owner: Owner): Change[] {
  const out: Change[] = [];
  const bMap = isObject(b) ? b : {};
  const hMap = isObject(h) ? h : {};
  for (const status of [...new Set([...Object.keys(bMap), ...Object.keys(hMap)])].sort()) {
    const here = `${at}/${escape(status)}`;
    if (!(status in hMap)) {
      out.push(fixedChange("response-status-removed", ["servers"], here, `response ${status} removed`, owner));
    } else if (!(status in bMap)) {
      if (isError(status)) out.push(fixedChange("response-error-status-added", [], here, `error response ${status} added`, owner));
      else out.push(fixedChange("response-status-added", ["clients"], here, `response ${status} added`, owner));
    } else {
      const br = placed(ctx.base, bMap[status], child(bLoc, status));
      const hr = placed(ctx.head, hMap[status], child(hLoc, status));
      out.push(...compareHeaders(ctx, br, hr, `${here}/headers`, owner, status));
      out.push(...compareContent(ctx, br.node.content, child(br.loc, "content"), hr.node.content, child(hr.loc, "content"), RESPONSE, `${here}/content`, owner, `response ${status}`));
    }
  }
  return out;
}

function compareHeaders(ctx: DiffContext, br: Placed, hr: Placed, at: string, owner: Owner, status: string): Change[] {
  const out: Change[] = [];
  const list = (r: Placed) => new Map(Object.entries(isObject(r.node.headers) ? r.node.headers : {}).map(([name, node]) => [name.toLowerCase(), { name, node }]));
  const bMap = list(br);
  const hMap = list(hr);
  for (const key of [...new Set([...bMap.keys(), ...hMap.keys()])].sort()) {
    const bh = bMap.get(key);
    const hh = hMap.get(key);
    const name = (hh ?? bh)!.name;
    const here = `${at}/${escape(name)}`;
    const what = `response ${status} header ${name}`;
    if (bh && !hh) {
      out.push(fixedChange("response-header-removed", ["clients"], here, `${what} removed`, owner));
      continue;
    }
    const h = placed(ctx.head, hh!.node, child(hr.loc, "headers", hh!.name));
    if (!bh) {
      const required = h.node.required === true;
      out.push(fixedChange(required ? "response-required-header-added" : "response-optional-header-added", required ? ["servers"] : [], here, `${required ? "required" : "optional"} ${what} added`, owner));
      continue;
    }
    const b = placed(ctx.base, bh.node, child(br.loc, "headers", bh.name));
    if (b.node.required === true && h.node.required !== true) out.push(fixedChange("response-header-became-optional", ["clients"], here, `${what} is no longer required`, owner));
    if (b.node.required !== true && h.node.required === true) out.push(fixedChange("response-header-became-required", ["servers"], here, `${what} is now required`, owner));
    const findings = ctx.schemas.compare(b.node.schema ?? {}, child(b.loc, "schema"), h.node.schema ?? {}, child(h.loc, "schema"));
    for (const f of findings) out.push(toChange({ ...f, kind: `header-${f.kind}`, message: `${what}: ${f.message}` }, RESPONSE, `${here}/schema`, owner));
  }
  return out;
}
