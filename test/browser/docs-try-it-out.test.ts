/**
 * "Try it out" on the reference server's /docs, in Chromium, for an operation of each host: a
 * feed on the API host (the page's own origin) and the token exchange on the web host (another
 * origin: the page's CSP must allow it, the contract must point at where this server's web host
 * listens, and the web host must answer the CORS preflight and the call). Each must get the
 * server's answer, not "Failed to fetch".
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../reference/server.ts";
import { chromiumSkip, launchChromium, saveArtifact } from "./chromium.ts";
import { ceiling } from "../ceilings.ts";

let server: RunningServer;
let browser: Browser | undefined;
let skipReason: string | undefined;

beforeAll(async () => {
  server = await startServer({ port: 0, authPort: 0, seed: "demo", deliveries: { enabled: false } });
  skipReason = await chromiumSkip();
  if (!skipReason) browser = await launchChromium();
}, ceiling(60_000));

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens /docs, collecting page errors and console errors (CSP violations show only there). */
async function openDocs(): Promise<{ page: Page; problems: string[] }> {
  const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
  });
  await page.goto(`${server.urls.api}/docs`);
  return { page, problems };
}

/** Expands the operation, presses "Try it out", fills the named fields, presses Execute; returns the live response's status and body. */
async function tryItOut(page: Page, id: string, fields: Record<string, string> = {}): Promise<{ status: string; body: string }> {
  const operation = page.locator(`#${id}`);
  await operation.locator(".opblock-summary").click();
  await operation.getByRole("button", { name: "Try it out" }).click();
  for (const [name, value] of Object.entries(fields)) {
    const input = operation.locator(`input[placeholder="${name}"], tr[data-param-name="${name}"] input`).first();
    if ((await input.count()) > 0) await input.fill(value);
  }
  await operation.getByRole("button", { name: "Execute" }).click();
  const status = operation.locator(".live-responses-table .response .response-col_status").first();
  await status.waitFor({ state: "visible" });
  const body = operation.locator(".live-responses-table .response .response-col_description").first();
  return { status: (await status.innerText()).trim(), body: await body.innerText() };
}

describe("the API reference's Try it out", () => {
  it("calls the API host for a feed", async (ctx) => {
    if (!browser) return ctx.skip(skipReason);
    const { page, problems } = await openDocs();
    const answer = await tryItOut(page, "operations-activity-listPublicEvents");
    expect(answer.status, answer.body).toBe("200");
    // The feed's own headers, read by the page: the answer came from the API host.
    expect(answer.body).toContain("x-poll-interval");
    expect(problems).toEqual([]);
  }, ceiling(60_000));

  it("calls the web host for the token exchange (CSP, CORS preflight and answer)", async (ctx) => {
    if (!browser) return ctx.skip(skipReason);
    const { page, problems } = await openDocs();
    const answer = await tryItOut(page, "operations-oauth-createAccessToken", {
      client_id: "demo-client-id-0001",
      client_secret: "demo-client-secret-0001-keep-it-private",
      code: "no-such-code",
    });
    ctx.annotate(`screenshot: ${saveArtifact("docs-try-token.png", await page.screenshot({ fullPage: false }))}`);
    // The token exchange answers its errors with 200 (the seed's rule); the body names the error.
    expect(answer.body).not.toContain("Failed to fetch");
    expect(answer.status, answer.body).toBe("200");
    expect(answer.body).toMatch(/bad_verification_code|incorrect_client_credentials/);
    expect(problems).toEqual([]);
  }, ceiling(60_000));
});
