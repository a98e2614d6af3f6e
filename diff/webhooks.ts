/**
 * Webhooks, matched by name (the `X-Service-Event` value, plus `ping`). A delivery is a request
 * the service sends, so its direction is the reverse of an operation's: the servers write it
 * and the receivers read it. A webhook removed breaks the receivers that handle it; one added
 * breaks the servers, which must now send it (receivers are told to accept events they do not
 * know). Its headers and payload are compared in that direction; what a receiver answers
 * (any 2XX) is not compared.
 */
import { child, isObject, type Contract } from "./documents.ts";
import { fixedChange, WEBHOOK, type Change } from "./change.ts";
import { compareBody } from "./content.ts";
import { pointer, type DiffContext } from "./context.ts";
import { compareParameters, parametersOf } from "./parameters.ts";
import type { Operation } from "./operations.ts";

/** A webhook is read like an operation (its path item and method), named instead of addressed. */
type Webhook = Omit<Operation, "id" | "path"> & { name: string };

function webhooksOf(contract: Contract): Map<string, Webhook> {
  const out = new Map<string, Webhook>();
  // 3.0 has no `webhooks`; documents (our 3.0 edition among them) carry them as `x-webhooks`.
  const declared = contract.version === "3.0" && contract.root.webhooks === undefined ? contract.root["x-webhooks"] : contract.root.webhooks;
  const key = declared === contract.root.webhooks ? "webhooks" : "x-webhooks";
  const hooks = isObject(declared) ? declared : {};
  for (const [name, itemNode] of Object.entries(hooks)) {
    const r = contract.deref(itemNode, { url: contract.rootUrl, pointer: pointer(key, name).slice(1) });
    const item = isObject(r.node) ? r.node : {};
    const method = ["post", "put"].find((m) => isObject(item[m])) ?? "post";
    out.set(name, { name, method, node: isObject(item[method]) ? item[method] : {}, loc: child(r.loc, method), item, itemLoc: r.loc, at: pointer("webhooks", name, method) });
  }
  return out;
}

export function compareWebhooks(ctx: DiffContext): Change[] {
  const out: Change[] = [];
  const bHooks = webhooksOf(ctx.base);
  const hHooks = webhooksOf(ctx.head);
  for (const name of [...new Set([...bHooks.keys(), ...hHooks.keys()])].sort()) {
    const b = bHooks.get(name);
    const h = hHooks.get(name);
    const owner = { webhook: name };
    if (!h) {
      out.push(fixedChange("webhook-removed", ["receivers"], pointer("webhooks", name), `webhook ${name} removed`, owner));
      continue;
    }
    if (!b) {
      out.push(fixedChange("webhook-added", ["servers"], pointer("webhooks", name), `webhook ${name} added`, owner));
      continue;
    }
    const params = (c: Contract, w: Webhook) =>
      parametersOf(c, [
        { node: w.item.parameters, loc: child(w.itemLoc, "parameters") },
        { node: w.node.parameters, loc: child(w.loc, "parameters") },
      ]).filter((p) => p.in === "header");
    out.push(...compareParameters(ctx, params(ctx.base, b), params(ctx.head, h), WEBHOOK, owner));
    out.push(...compareBody(ctx, b.node.requestBody, child(b.loc, "requestBody"), h.node.requestBody, child(h.loc, "requestBody"), WEBHOOK, `${h.at}/requestBody`, owner));
  }
  return out;
}
