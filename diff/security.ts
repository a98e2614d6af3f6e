/**
 * Security: the schemes the contract declares (`components.securitySchemes`, with the OAuth 2
 * flows' URLs and scopes) and, per operation, the alternatives that authorize a call
 * (`security`: any one alternative suffices; `{}` means anonymous calls are allowed).
 *
 * A way in that is removed (a scheme, a flow, a scope, an alternative, anonymous access) breaks
 * the clients that used it; one that is added breaks the servers, which must now accept it. A
 * scheme whose wire form changes (another header name, another type, another token URL)
 * breaks both.
 */
import { isObject, type Json } from "./documents.ts";
import { fixedChange, type Change } from "./change.ts";
import { pointer, type DiffContext } from "./context.ts";

const WIRE_FIELDS = ["type", "in", "name", "scheme", "bearerFormat", "openIdConnectUrl"];
const FLOW_URLS = ["authorizationUrl", "tokenUrl", "refreshUrl"];

function record(value: Json): Record<string, Json> {
  return isObject(value) ? value : {};
}

export function compareSecuritySchemes(ctx: DiffContext): Change[] {
  const out: Change[] = [];
  const bSchemes = record(record(ctx.base.root.components).securitySchemes);
  const hSchemes = record(record(ctx.head.root.components).securitySchemes);
  for (const name of [...new Set([...Object.keys(bSchemes), ...Object.keys(hSchemes)])].sort()) {
    const at = pointer("components", "securitySchemes", name);
    if (!(name in hSchemes)) {
      out.push(fixedChange("security-scheme-removed", ["clients"], at, `security scheme ${name} removed`));
      continue;
    }
    if (!(name in bSchemes)) {
      out.push(fixedChange("security-scheme-added", ["servers"], at, `security scheme ${name} added`));
      continue;
    }
    const b = record(ctx.base.deref(bSchemes[name], { url: ctx.base.rootUrl, pointer: at.slice(1) }).node);
    const h = record(ctx.head.deref(hSchemes[name], { url: ctx.head.rootUrl, pointer: at.slice(1) }).node);
    for (const field of WIRE_FIELDS) {
      if (b[field] !== h[field]) out.push(fixedChange("security-scheme-changed", ["clients", "servers"], `${at}/${field}`, `security scheme ${name}: ${field} changed from ${JSON.stringify(b[field] ?? null)} to ${JSON.stringify(h[field] ?? null)}`));
    }
    out.push(...compareFlows(name, record(b.flows), record(h.flows), `${at}/flows`));
  }
  return out;
}

function compareFlows(scheme: string, bFlows: Record<string, Json>, hFlows: Record<string, Json>, at: string): Change[] {
  const out: Change[] = [];
  for (const flow of [...new Set([...Object.keys(bFlows), ...Object.keys(hFlows)])].sort()) {
    const here = `${at}/${flow}`;
    if (!(flow in hFlows)) {
      out.push(fixedChange("oauth-flow-removed", ["clients"], here, `security scheme ${scheme}: flow ${flow} removed`));
      continue;
    }
    if (!(flow in bFlows)) {
      out.push(fixedChange("oauth-flow-added", ["servers"], here, `security scheme ${scheme}: flow ${flow} added`));
      continue;
    }
    const b = record(bFlows[flow]);
    const h = record(hFlows[flow]);
    for (const field of FLOW_URLS) {
      if (b[field] !== h[field]) out.push(fixedChange("oauth-flow-url-changed", ["clients", "servers"], `${here}/${field}`, `security scheme ${scheme}: ${flow} ${field} changed from ${JSON.stringify(b[field] ?? null)} to ${JSON.stringify(h[field] ?? null)}`));
    }
    const bScopes = record(b.scopes);
    const hScopes = record(h.scopes);
    for (const scope of Object.keys(bScopes).filter((s) => !(s in hScopes)).sort()) {
      out.push(fixedChange("oauth-scope-removed", ["clients"], `${here}/scopes/${scope.replace(/~/g, "~0").replace(/\//g, "~1")}`, `security scheme ${scheme}: scope ${scope} removed`));
    }
    for (const scope of Object.keys(hScopes).filter((s) => !(s in bScopes)).sort()) {
      out.push(fixedChange("oauth-scope-added", ["servers"], `${here}/scopes/${scope.replace(/~/g, "~0").replace(/\//g, "~1")}`, `security scheme ${scheme}: scope ${scope} added`));
    }
  }
  return out;
}

/** An alternative as one string: `anonymous`, `token[repo]`, `basic[] + token[gist,repo]`. */
function alternatives(security: Json): Set<string> {
  const list = Array.isArray(security) ? security : [];
  return new Set(
    list.map((req) => {
      const entries = Object.entries(record(req));
      if (entries.length === 0) return "anonymous";
      return entries
        .map(([scheme, scopes]) => `${scheme}[${(Array.isArray(scopes) ? scopes.map(String) : []).sort().join(",")}]`)
        .sort()
        .join(" + ");
    }),
  );
}

/** `bSec`/`hSec`: the operation's `security`, or the document's when it has none. */
export function compareOperationSecurity(bSec: Json, hSec: Json, at: string, operation: string): Change[] {
  const b = alternatives(bSec);
  const h = alternatives(hSec);
  const out: Change[] = [];
  for (const alt of [...b].filter((a) => !h.has(a)).sort()) {
    out.push(fixedChange(alt === "anonymous" ? "anonymous-access-removed" : "security-alternative-removed", ["clients"], at, alt === "anonymous" ? "anonymous calls are no longer allowed" : `no longer accepts ${alt}`, { operation }));
  }
  for (const alt of [...h].filter((a) => !b.has(a)).sort()) {
    out.push(fixedChange(alt === "anonymous" ? "anonymous-access-added" : "security-alternative-added", ["servers"], at, alt === "anonymous" ? "anonymous calls are now allowed" : `now accepts ${alt}`, { operation }));
  }
  return out;
}
