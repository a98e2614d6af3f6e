/**
 * Operations, matched by `operationId` (or `METHOD /path` for one without): removed, added,
 * moved to another path, method or host, and for each one both contracts have, its security,
 * parameters, request body and responses. An operation removed breaks the clients that call
 * it; one added breaks the servers, which must now implement it (an implementation of this
 * contract is judged by the conformance suite, which will call it).
 */
import { child, isObject, type Contract, type Json, type Location } from "./documents.ts";
import { fixedChange, REQUEST, type Change } from "./change.ts";
import { compareBody } from "./content.ts";
import { pointer, type DiffContext } from "./context.ts";
import { compareParameters, parametersOf, templateShape } from "./parameters.ts";
import { compareResponses } from "./responses.ts";
import { compareOperationSecurity } from "./security.ts";

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

export interface Operation {
  id: string;
  path: string;
  method: string;
  node: Record<string, Json>;
  loc: Location;
  item: Record<string, Json>;
  itemLoc: Location;
  at: string;
}

export function operationsOf(contract: Contract): Map<string, Operation> {
  const out = new Map<string, Operation>();
  const paths = isObject(contract.root.paths) ? contract.root.paths : {};
  for (const [path, itemNode] of Object.entries(paths)) {
    const r = contract.deref(itemNode, { url: contract.rootUrl, pointer: pointer("paths", path).slice(1) });
    const item = isObject(r.node) ? r.node : {};
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const id = typeof op.operationId === "string" ? op.operationId : `${method.toUpperCase()} ${path}`;
      // Without an operationId, matched by method and path shape: a renamed path variable is the same operation.
      const key = typeof op.operationId === "string" ? op.operationId : `${method.toUpperCase()} ${templateShape(path)}`;
      out.set(key, { id, path, method, node: op, loc: child(r.loc, method), item, itemLoc: r.loc, at: pointer("paths", path, method) });
    }
  }
  return out;
}

/** The servers an operation is served from: its own, its path item's, or the document's. */
function hostsOf(contract: Contract, op: Operation): string {
  const list = op.node.servers ?? op.item.servers ?? contract.root.servers;
  return (Array.isArray(list) ? list : []).map((s) => String(isObject(s) ? s.url : "")).sort().join(", ");
}

export function compareOperations(ctx: DiffContext): Change[] {
  const out: Change[] = [];
  const bOps = operationsOf(ctx.base);
  const hOps = operationsOf(ctx.head);
  for (const id of [...new Set([...bOps.keys(), ...hOps.keys()])].sort()) {
    const b = bOps.get(id);
    const h = hOps.get(id);
    if (b && !h) {
      out.push(fixedChange("operation-removed", ["clients"], b.at, `operation ${b.method.toUpperCase()} ${b.path} removed`, { operation: b.id }));
      continue;
    }
    if (!b && h) {
      out.push(fixedChange("operation-added", ["servers"], h.at, `operation ${h.method.toUpperCase()} ${h.path} added`, { operation: h.id }));
      continue;
    }
    out.push(...compareOperation(ctx, b!, h!));
  }
  return out;
}

function compareOperation(ctx: DiffContext, b: Operation, h: Operation): Change[] {
  const out: Change[] = [];
  const owner = { operation: h.id };
  // Path variables renamed (`{hook_id}` → `{id}`) address the same URLs: not a move.
  if (templateShape(b.path) !== templateShape(h.path) || b.method !== h.method) {
    out.push(fixedChange("operation-moved", ["clients", "servers"], h.at, `moved from ${b.method.toUpperCase()} ${b.path} to ${h.method.toUpperCase()} ${h.path}`, owner));
  }
  const bHosts = hostsOf(ctx.base, b);
  const hHosts = hostsOf(ctx.head, h);
  if (bHosts !== hHosts) out.push(fixedChange("operation-servers-changed", ["clients", "servers"], `${h.at}/servers`, `served from ${hHosts || "(no server)"} instead of ${bHosts || "(no server)"}`, owner));
  if (!b.node.deprecated && h.node.deprecated) out.push(fixedChange("operation-deprecated", [], h.at, "deprecated", owner));
  out.push(...compareOperationSecurity(b.node.security ?? ctx.base.root.security, h.node.security ?? ctx.head.root.security, `${h.at}/security`, h.id));
  const params = (c: Contract, op: Operation) =>
    parametersOf(
      c,
      [
        { node: op.item.parameters, loc: child(op.itemLoc, "parameters") },
        { node: op.node.parameters, loc: child(op.loc, "parameters") },
      ],
      op.path,
    );
  out.push(...compareParameters(ctx, params(ctx.base, b), params(ctx.head, h), REQUEST, owner));
  out.push(...compareBody(ctx, b.node.requestBody, child(b.loc, "requestBody"), h.node.requestBody, child(h.loc, "requestBody"), REQUEST, `${h.at}/requestBody`, owner));
  out.push(...compareResponses(ctx, b.node.responses, child(b.loc, "responses"), h.node.responses, child(h.loc, "responses"), `${h.at}/responses`, owner));
  return out;
}
