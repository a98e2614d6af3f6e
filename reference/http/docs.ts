/**
 * A rendered reference of the contract on the API host: Swagger UI at `/docs` (and `/docs/`),
 * its files from the installed swagger-ui-dist, and the contract itself at `/docs/openapi.json`.
 *
 * The page works offline: every file comes from this server, and the Content-Security-Policy
 * allows only 'self' (plus `data:` images, which swagger-ui.css uses for its icons), so nothing
 * the page does can reach another host. The contract is served in its portable single-document
 * form (generators/portable-bundle.ts), since Swagger UI does not follow the schema files' `$id`s;
 * it is built on its first request (once per process), with a relative server prepended so "Try
 * it out" calls this server. The package's bundle (`service-contract bundle`: the 3.1 file, the
 * 3.0 edition, the JSON Schema files) is served as it ships, under `<prefix>/bundle/`, when the
 * contract is the package's own. Only explicit routes are registered: any other path under the
 * prefix falls through to the app's not-found handling.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { indexHtml, initScript, SWAGGER_UI_FILES, type SwaggerUiFile } from "./docs-page.ts";
import { PACKAGE_ROOT, PACKAGE_SPEC } from "../../generators/package-files.ts";

export interface DocsOptions {
  /** The contract's root document; default spec/openapi.yaml of this repository. */
  specPath?: string;
  /** Where the reference is mounted; default "/docs". */
  prefix?: string;
  /**
   * The web host's origin as browsers reach it (the OAuth pages and the token exchange), read on
   * each request since it is known only once the server listens. With it, "Try it out" on the
   * web host's operations calls that host: the contract's `{auth_url}` defaults to it and the
   * page's CSP lets the page connect there (the web host answers the CORS preflight,
   * reference/oauth/cors.ts). Without it, the page reaches only its own origin.
   */
  authUrl?: () => string | undefined;
}

const DEFAULT_SPEC = PACKAGE_SPEC;

/** The page's policy: only this origin, and the web host's when it is given (for "Try it out"). */
export function docsCsp(authUrl?: string): string {
  return [
    "default-src 'self'",
    ...(authUrl ? [`connect-src 'self' ${new URL(authUrl).origin}`] : []),
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export const DOCS_CSP = docsCsp();

// Versioned asset URLs may be cached for good; the page, start-up script and contract change
// with this server, so clients revalidate them (cheaply, by ETag).
const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";

interface Resource {
  body: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
}

function resource(body: Buffer | string, type: string, cacheControl: string): Resource {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  const etag = `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`;
  return { body: bytes, type, etag, cacheControl };
}

/** RFC 9110 §13.1.2: a weak comparison, and `*` matches any current representation. */
function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers["if-none-match"];
  if (header === undefined) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === etag;
  });
}

function send(request: FastifyRequest, reply: FastifyReply, r: Resource, csp: string): void {
  reply
    .header("Content-Security-Policy", csp)
    .header("X-Content-Type-Options", "nosniff")
    .header("Referrer-Policy", "no-referrer")
    .header("Cache-Control", r.cacheControl)
    .header("ETag", r.etag);
  if (notModified(request, r.etag)) reply.code(304).send();
  else reply.type(r.type).send(r.body);
}

function normalizePrefix(prefix: string): string {
  const p = prefix.replace(/\/+$/, "");
  // The prefix is written into the HTML page and a script, so only plain path characters.
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(p)) throw new Error(`registerDocs: invalid prefix ${JSON.stringify(prefix)}`);
  return p;
}

function swaggerUiDist(): { dir: string; version: string } {
  // Resolve package.json rather than calling the package's getAbsoluteFSPath(): importing its
  // index.js would load the 1.7 MB browser bundle into this process.
  const pkgPath = createRequire(import.meta.url).resolve("swagger-ui-dist/package.json");
  const { version } = JSON.parse(readFileSync(pkgPath, "utf8")) as { version: string };
  return { dir: dirname(pkgPath), version };
}

// The contract in its portable form costs about 0.5 s of CPU to build (YAML, every schema file,
// the $ref rewrite). It is built on its first request, once per process and spec file, so a
// server start (the CLI's, and each of the dozens a test file starts) does not pay for a page
// most runs never open. It is our own packaged contract, which `lint` and the tests check.
const contracts = new Map<string, Promise<Resource>>();

type Servers = { url: string; variables?: Record<string, { default: string }> }[];

/** The web host's operations (servers with an `{auth_url}` variable) default to where this server's web host is. */
function pointAtWebHost(doc: { paths?: Record<string, Record<string, unknown>> }, authUrl: string): void {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const holder of [item, ...Object.values(item)]) {
      const servers = (holder as { servers?: Servers } | null)?.servers;
      if (!Array.isArray(servers)) continue;
      for (const server of servers) if (server.variables?.auth_url) server.variables.auth_url.default = authUrl;
    }
  }
}

function contractResource(specPath: string, authUrl: string | undefined): Promise<Resource> {
  const key = `${specPath}\n${authUrl ?? ""}`;
  let pending = contracts.get(key);
  if (!pending) {
    // Imported here, not above: a server nobody asks for the contract never loads the bundler.
    pending = import("../../generators/portable-bundle.ts").then(async ({ loadPortableDocument }) => {
      // A copy: the loaded document may be shared, and the servers are rewritten below.
      const doc = structuredClone(await loadPortableDocument(specPath));
      if (authUrl) pointAtWebHost(doc as { paths?: Record<string, Record<string, unknown>> }, authUrl);
      const servers = [{ url: "/", description: "This server (the host serving this reference)" }, ...(doc.servers ?? [])];
      return resource(JSON.stringify({ ...doc, servers }), "application/json; charset=utf-8", REVALIDATE);
    });
    // A failure is not kept: the next request tries again.
    pending.catch(() => contracts.delete(key));
    contracts.set(key, pending);
  }
  return pending;
}

const BUNDLE_DIR = join(PACKAGE_ROOT, "bundle");
const BUNDLE_TYPES: Record<string, string> = { ".json": "application/json; charset=utf-8", ".md": "text/markdown; charset=utf-8" };

/** Every file of the shipped bundle, as `/`-separated paths relative to it. */
function bundleFiles(dir = BUNDLE_DIR, at = ""): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? bundleFiles(join(dir, e.name), `${at}${e.name}/`) : [`${at}${e.name}`]));
}

/** Serve the API reference under `options.prefix` (default `/docs`). */
export async function registerDocs(app: FastifyInstance, options: DocsOptions = {}): Promise<void> {
  const prefix = normalizePrefix(options.prefix ?? "/docs");
  const dist = swaggerUiDist();
  const urls = { assets: `${prefix}/assets/swagger-ui-${dist.version}`, init: `${prefix}/init.js`, spec: `${prefix}/openapi.json` };

  const specPath = options.specPath ?? DEFAULT_SPEC;
  const page = resource(indexHtml(urls), "text/html; charset=utf-8", REVALIDATE);
  const init = resource(initScript(urls), "text/javascript; charset=utf-8", REVALIDATE);

  const authUrl = (): string | undefined => options.authUrl?.() || undefined;
  const serve = (path: string, r: Resource) => {
    app.get(path, (request, reply) => {
      send(request, reply, r, docsCsp(authUrl()));
    });
  };
  serve(prefix, page);
  // Under the router's ignoreTrailingSlash the route above already answers `/docs/`, and declaring
  // it again would throw (hasRoute does not see that). The option has two homes in Fastify 5.
  const config = app.initialConfig;
  if (!(config.routerOptions?.ignoreTrailingSlash || config.ignoreTrailingSlash)) serve(`${prefix}/`, page);
  serve(urls.init, init);
  app.get(urls.spec, async (request, reply) => {
    const auth = authUrl();
    send(request, reply, await contractResource(specPath, auth), docsCsp(auth));
    return reply;
  });
  if (specPath === DEFAULT_SPEC) {
    for (const file of bundleFiles()) {
      const type = BUNDLE_TYPES[file.slice(file.lastIndexOf("."))];
      if (!type) continue;
      // Read on the first request and kept: 2 MB of files most runs never ask for.
      let cached: Resource | undefined;
      app.get(`${prefix}/bundle/${file}`, (request, reply) => {
        cached ??= resource(readFileSync(join(BUNDLE_DIR, file)), type, REVALIDATE);
        send(request, reply, cached, docsCsp(authUrl()));
      });
    }
  }
  for (const [file, type] of Object.entries(SWAGGER_UI_FILES) as [SwaggerUiFile, string][]) {
    // Read now, so a broken install fails at start-up rather than on a visitor's first request.
    serve(`${urls.assets}/${file}`, resource(readFileSync(join(dist.dir, file)), type, IMMUTABLE));
  }
}
