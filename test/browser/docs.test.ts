/**
 * The API reference at /docs (reference/http/docs.ts): over plain HTTP (content types, caching,
 * the served contract, not-found), and rendered in Chromium, where every tag's operations must
 * show up and the page must not make a single request beyond the test server.
 */
import Fastify, { type FastifyInstance } from "fastify";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerDocs } from "../../reference/http/docs.ts";
import { PAGE_TITLE } from "../../reference/http/docs-page.ts";
import { chromiumSkip, launchChromium, saveArtifact } from "./chromium.ts";
import { ceiling } from "../ceilings.ts";

type Operation = { summary?: string; tags?: string[] };
type Contract = {
  openapi: string;
  servers: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

let app: FastifyInstance;
let origin: string;

beforeAll(async () => {
  app = Fastify();
  await registerDocs(app, {});
  origin = await app.listen({ host: "127.0.0.1", port: 0 });
});

afterAll(() => app?.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${origin}${path}`, { headers });

/** Every `$ref` in a document, to show that the served contract points only into itself. */
function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refs(n, out));
  else if (node !== null && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) if (k === "$ref" && typeof v === "string") out.push(v);
    else refs(v, out);
  }
  return out;
}

describe("API reference over HTTP", () => {
  it.each(["/docs", "/docs/"])("serves the page at %s", async (path) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'self'/);
    expect(await res.text()).toContain(`<title>${PAGE_TITLE}</title>`);
  });

  it("serves every file the page links to, with its type and a long cache lifetime", async () => {
    const html = await (await get("/docs")).text();
    const links = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);
    const expected: Record<string, string> = {
      css: "text/css; charset=utf-8",
      js: "text/javascript; charset=utf-8",
      png: "image/png",
    };
    expect(links.length).toBeGreaterThanOrEqual(5);
    for (const link of links) {
      expect(link, "absolute path on this host").toMatch(/^\/docs\//);
      const res = await get(link);
      expect(res.status, link).toBe(200);
      expect(res.headers.get("content-type"), link).toBe(expected[link.split(".").pop()!]);
      const immutable = link.includes("/assets/");
      expect(res.headers.get("cache-control"), link).toBe(immutable ? "public, max-age=31536000, immutable" : "no-cache");
      expect((await res.arrayBuffer()).byteLength, link).toBeGreaterThan(100);
    }
  });

  it("serves the contract as one self-contained OpenAPI 3.1 document targeting this server", async () => {
    const res = await get("/docs/openapi.json");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const doc = (await res.json()) as Contract;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.schemas).toHaveProperty("ActivityEvent");
    expect(doc.servers[0]).toMatchObject({ url: "/" });
    expect(refs(doc).filter((r) => !r.startsWith("#/"))).toEqual([]);
  });

  it.each([
    ["the same tag", 304, (etag: string) => etag],
    ["a weak form of it", 304, (etag: string) => `W/${etag}`],
    ["a list containing it", 304, (etag: string) => `"other", ${etag}`],
    ["*", 304, () => "*"],
    ["another tag", 200, () => '"other"'],
  ])("answers If-None-Match with %s: %i", async (_, status, header) => {
    const etag = (await get("/docs/openapi.json")).headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const res = await get("/docs/openapi.json", { "if-none-match": header(etag) });
    expect(res.status).toBe(status);
    expect(res.headers.get("etag")).toBe(etag);
    if (status === 304) expect(await res.text()).toBe("");
  });

  it.each(["/docs/nope", "/docs/openapi.yaml", "/docs/assets/swagger-ui-0.0.0/swagger-ui.css"])("leaves %s to the not-found handler", async (path) => {
    expect((await get(path)).status).toBe(404);
  });

  it("mounts under another prefix on a router that ignores trailing slashes", async () => {
    const other = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
    await registerDocs(other, { prefix: "/reference/" });
    for (const url of ["/reference", "/reference/", "/reference/openapi.json", "/reference/init.js"]) {
      expect((await other.inject(url)).statusCode, url).toBe(200);
    }
    expect((await other.inject("/reference/init.js")).body).toContain('"url": "/reference/openapi.json"');
    await other.close();
  });

  it("rejects a prefix that is not a plain path", async () => {
    await expect(registerDocs(Fastify(), { prefix: 'docs"><script>' })).rejects.toThrow(/invalid prefix/);
  });
});

describe("API reference in Chromium", () => {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let skipReason: string | undefined;

  beforeAll(async () => {
    skipReason = await chromiumSkip(); // throws under CI when Chromium is missing
    if (skipReason === undefined) browser = await launchChromium();
    // Reporters other than verbose drop the skip note; say it where everyone sees it.
    else console.warn(`Skipping browser tests: ${skipReason}`);
  }, ceiling(60_000));

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it("renders every tag's operations without leaving the test server", async (ctx) => {
    if (!browser) return ctx.skip(skipReason);
    const doc = (await (await get("/docs/openapi.json")).json()) as Contract;
    // One summary per tag, read from the contract, so a renamed operation cannot break the test.
    const operations = [...Object.values(doc.paths), ...Object.values(doc.webhooks)].flatMap((item) => Object.values(item));
    const summaries = doc.tags.map(({ name }) => {
      const op = operations.find((o) => o.tags?.includes(name) && o.summary);
      expect(op, `an operation tagged ${name}`).toBeDefined();
      return op!.summary!;
    });
    expect(summaries).toContain("List public events");

    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const problems: string[] = [];
    // Record every request, and stop foreign ones before they reach the network.
    await context.route("**/*", (route) => {
      const url = route.request().url();
      requests.push(url);
      return url.startsWith(`${origin}/`) ? route.continue() : route.abort();
    });
    const page = await context.newPage();
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    // CSP violations surface only as console errors.
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
    });

    await page.goto(`${origin}/docs`);
    expect(await page.title()).toBe(PAGE_TITLE);
    for (const summary of summaries) {
      await page.locator(".opblock-summary-description", { hasText: summary }).first().waitFor({ state: "visible", timeout: ceiling(20_000) });
    }
    // The contract's long introduction fills the first screen; show the servers and operations.
    await page.locator(".scheme-container").evaluate((el) => el.scrollIntoView());
    const screenshot = saveArtifact("docs.png", await page.screenshot());
    ctx.annotate(`screenshot: ${screenshot}`);

    // "Try it out" must call this server (the relative server the document was given).
    const operation = page.locator("#operations-activity-listPublicEvents");
    await operation.locator(".opblock-summary").click();
    await operation.getByRole("button", { name: "Try it out" }).click();
    const call = page.waitForRequest((r) => r.url().includes("/events"));
    await operation.getByRole("button", { name: "Execute" }).click();
    const called = new URL((await call).url());
    expect([called.origin, called.pathname]).toEqual([origin, "/events"]);

    expect(requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    expect(requests).toContain(`${origin}/docs/openapi.json`);
    // The test server has no /events route; Chromium logs that 404 as a console error.
    expect(problems.filter((p) => !p.includes("404"))).toEqual([]);
  }, ceiling(60_000));
});
