/**
 * What the server target needs to know about each operation, derived from the model (and, for
 * the two things the model does not keep, `x-resource` and `xml.name`, from the portable
 * document): the route table entries the runtime reads, and the names of the generated types.
 */
import type { OpenApiDocument } from "../../load-spec.ts";
import type { Model, ModelMedia, ModelOperation } from "../../model.ts";
import { resolvePointer } from "../../model.ts";

export interface RouteView {
  operationId: string;
  method: "DELETE" | "GET" | "PATCH" | "POST" | "PUT";
  path: string;
  url: string;
  host: "api" | "auth";
  resource: string;
  security: string[];
  credentials: [CredentialPlace, string][];
  acceptedScopes: string[];
  query: string[];
  headers: [string, string][];
  body: { required: boolean; mediaTypes: string[] } | null;
  responses: Record<string, { mediaTypes: string[]; xmlRoot?: string }>;
}

type Node = Record<string, unknown>;
type CredentialPlace = "header" | "query" | "cookie";

/**
 * Where a request to the operation may carry its credentials, from its security schemes: an
 * `Authorization` header for HTTP, OAuth 2 and OpenID Connect schemes, the named header, query
 * parameter or cookie for an API key. Empty when the operation may be called anonymously. The
 * runtime refuses a request that carries none of them with 401 before reading its body, so an
 * anonymous caller never has a body validated (issue 41).
 */
function credentialsOf(doc: OpenApiDocument, security: readonly string[]): [CredentialPlace, string][] {
  if (security.length === 0 || security.includes("")) return [];
  const schemes = (((doc as Node).components as Node | undefined)?.securitySchemes ?? {}) as Node;
  const places = new Map<string, [CredentialPlace, string]>();
  for (const name of security) {
    const scheme = deref(doc, schemes[name]);
    if (!scheme) return []; // a scheme we cannot read: leave the decision to the handler
    let place: [CredentialPlace, string];
    if (scheme.type === "apiKey" && (scheme.in === "header" || scheme.in === "query" || scheme.in === "cookie") && typeof scheme.name === "string") {
      place = [scheme.in, scheme.in === "header" ? scheme.name.toLowerCase() : scheme.name];
    } else if (scheme.type === "http" || scheme.type === "oauth2" || scheme.type === "openIdConnect") place = ["header", "authorization"];
    else return []; // mutualTLS and the like: not visible in a header, so never refused here
    places.set(place.join("\0"), place);
  }
  return [...places.values()].sort((a, b) => (a.join("\0") < b.join("\0") ? -1 : 1));
}

/** `listRepoEvents` → `ListRepoEvents`. */
export function typeBase(operationId: string): string {
  return operationId.charAt(0).toUpperCase() + operationId.slice(1);
}

/** `/repos/{owner}/{repo}/events` → `/repos/:owner/:repo/events`. */
export function fastifyUrl(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ":$1");
}

function deref(doc: unknown, node: unknown): Node | undefined {
  let current = node as Node | undefined;
  for (let hops = 0; current && typeof current.$ref === "string" && current.$ref.startsWith("#") && hops < 32; hops++) {
    current = resolvePointer(doc, current.$ref) as Node | undefined;
  }
  return current;
}

function operationNode(doc: OpenApiDocument, op: ModelOperation): Node {
  const item = deref(doc, (doc.paths as Node | undefined)?.[op.path]);
  return (item?.[op.method] as Node | undefined) ?? {};
}

/** The root element of an XML body: `xml.name` on the schema, one of its alternatives, or its `$ref` target. */
function xmlRoot(doc: OpenApiDocument, schema: unknown, depth = 0): string | undefined {
  const node = schema as Node | undefined;
  if (!node || typeof node !== "object" || depth > 8) return undefined;
  const own = (node.xml as Node | undefined)?.name;
  if (typeof own === "string") return own;
  for (const key of ["oneOf", "anyOf", "allOf"]) {
    for (const member of (node[key] as unknown[] | undefined) ?? []) {
      const found = xmlRoot(doc, member, depth + 1);
      if (found) return found;
    }
  }
  return typeof node.$ref === "string" ? xmlRoot(doc, deref(doc, node), depth + 1) : undefined;
}

function schemaTitle(model: Model, media: ModelMedia | undefined): string | undefined {
  const schema = media?.schema;
  const ref = schema?.$ref ?? (schema?.items as Node | undefined)?.$ref;
  return model.schemas.find((s) => s.id === ref)?.name;
}

/**
 * `resource` of the operation's 422 items: the operation's `x-resource` when the contract sets
 * one, else the request body's schema title without `CreateRequest`/`UpdateRequest`/`Request`
 * (`HookCreateRequest` → `Hook`), else the success response's schema title.
 */
function resourceOf(model: Model, op: ModelOperation, node: Node): string {
  if (typeof node["x-resource"] === "string") return node["x-resource"];
  const json = (content: readonly ModelMedia[] | undefined) => content?.find((m) => m.mediaType === "application/json") ?? content?.[0];
  const fromBody = schemaTitle(model, json(op.requestBody?.content))?.replace(/(Create|Update)?Request$/, "");
  if (fromBody) return fromBody;
  const success = op.responses.find((r) => r.status.startsWith("2"));
  return schemaTitle(model, json(success?.content)) ?? typeBase(op.id);
}

export function routeViews(model: Model, doc: OpenApiDocument): RouteView[] {
  return model.operations.map((op) => {
    const node = operationNode(doc, op);
    const responseNodes = (node.responses ?? {}) as Node;
    return {
      operationId: op.id,
      method: op.method.toUpperCase() as RouteView["method"],
      path: op.path,
      url: fastifyUrl(op.path),
      host: op.host,
      resource: resourceOf(model, op, node),
      security: op.security,
      credentials: credentialsOf(doc, op.security),
      acceptedScopes: Array.isArray(node["x-accepted-scopes"]) ? (node["x-accepted-scopes"] as unknown[]).map(String).sort() : [],
      query: op.parameters.filter((p) => p.in === "query").map((p) => p.name),
      headers: op.parameters.filter((p) => p.in === "header").map((p) => [p.name.toLowerCase(), p.name] as [string, string]),
      body: op.requestBody ? { required: op.requestBody.required, mediaTypes: op.requestBody.content.map((m) => m.mediaType) } : null,
      responses: Object.fromEntries(
        op.responses.map((r) => {
          const content = (deref(doc, responseNodes[r.status])?.content ?? {}) as Node;
          const xml = r.content.find((m) => /[/+]xml$/.test(m.mediaType));
          const root = xml ? xmlRoot(doc, (content[xml.mediaType] as Node | undefined)?.schema) ?? schemaTitle(model, xml) ?? "response" : undefined;
          return [r.status, { mediaTypes: r.content.map((m) => m.mediaType), ...(root ? { xmlRoot: root } : {}) }];
        }),
      ),
    };
  });
}
