/**
 * The conformance suite's HTML report in Chromium: opened from disk like a CI artifact, it shows
 * the counts and every case, a failed case's details (expected, actual, pointer, curl) are visible
 * without a click, hostile text from the target is shown as text and never run, the status, area
 * and text filters work, and the page requests nothing and breaks no Content-Security-Policy rule.
 */
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { htmlReport } from "../../conformance/report/html.ts";
import { SAMPLE } from "../conformance/sample-summary.ts";
import { chromiumSkip, launchChromium, saveArtifact } from "./chromium.ts";
import { ceiling } from "../ceilings.ts";

describe("conformance HTML report in Chromium", () => {
  let browser: Browser | undefined;
  let skipReason: string | undefined;
  let page: Page;
  const requests: string[] = [];
  const problems: string[] = [];
  let url: string;

  beforeAll(async () => {
    skipReason = await chromiumSkip(); // throws under CI when Chromium is missing
    if (skipReason !== undefined) {
      console.warn(`Skipping browser tests: ${skipReason}`);
      return;
    }
    url = pathToFileURL(saveArtifact("conformance-report.html", htmlReport(SAMPLE))).href;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    await context.route("**/*", (route) => {
      requests.push(route.request().url());
      return route.request().url() === url ? route.continue() : route.abort();
    });
    page = await context.newPage();
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("dialog", (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    page.on("console", (msg) => {
      if (msg.type() === "error" || msg.type() === "warning") problems.push(`console: ${msg.text()}`);
    });
    await page.goto(url);
  }, ceiling(30_000));

  afterAll(async () => {
    await browser?.close();
  });

  const visibleIds = () => page.locator("article.case:visible code.id").allTextContents();

  it("shows the target, the counts and every case grouped by area", async (ctx) => {
    if (!browser) return ctx.skip(skipReason);
    expect(await page.title()).toBe("Conformance report: http://127.0.0.1:3000");
    expect(await page.locator(".count.passed b").textContent()).toBe("2");
    expect(await page.locator(".count.failed b").textContent()).toBe("2");
    expect(await page.locator(".count.skipped b").textContent()).toBe("1");
    expect(await page.locator("section.area h2").allTextContents()).toEqual([
      "oauth 1 passed, 1 failed, 0 skipped",
      "feeds 1 passed, 1 failed, 0 skipped",
      "webhooks 0 passed, 0 failed, 1 skipped",
    ]);
    expect(await visibleIds()).toEqual(SAMPLE.results.map((r) => r.id));
    expect(await page.locator("#shown").textContent()).toBe("5 of 5 shown");
    ctx.annotate(`screenshot: ${saveArtifact("conformance-report.png", await page.screenshot({ fullPage: true }))}`);
  });

  it("shows a failed case's details without a click; a passed one's stay folded", async (ctx) => {
    if (!browser) return ctx.skip(skipReason);
    const failed = page.locator("#case-OAUTH-REDIRECT-007");
    await expect.poll(() => failed.locator("dl.detail").isVisible()).toBe(true);
    const detail = await failed.locator("dl.detail").innerText();
    expect(detail).toContain("the authorize page accepted the redirect_uri");
    expect(detail).toContain('"location": "http://127.0.0.1:8080/callbackx?code=abc"');
    expect(detail).toMatch(/Pointer\s+\/status/);
    expect(detail).toContain("curl -i -X GET 'http://127.0.0.1:3001/login/oauth/authorize?client_id=x");
    expect(await page.locator("#case-FEEDS-ETAG-001 dl.detail").isVisible()).toBe(false);
    expect(await page.locator("#case-WEBHOOK-PING-001 .reason").textContent()).toBe("the run has no webhook receiver");
  });

  it("shows the target's markup as text and runs none of it", async (ctx) => {
    if (!browser) return ctx.skip(skipReason);
    expect(await page.locator("#case-FEEDS-PRIVATE-001 .title").textContent()).toContain('<script>alert("x")</script>');
    expect(await page.locator("script").count()).toBe(1);
  });

  it("filters by status, area and text", async (ctx) => {
    if (!browser) return ctx.skip(skipReason);
    await page.getByLabel("passed (2)").uncheck();
    expect(await visibleIds()).toEqual(["OAUTH-REDIRECT-007", "FEEDS-PRIVATE-001", "WEBHOOK-PING-001"]);
    await page.getByLabel("skipped (1)").uncheck();
    expect(await visibleIds()).toEqual(["OAUTH-REDIRECT-007", "FEEDS-PRIVATE-001"]);
    expect(await page.locator("section.area[data-area=webhooks]").isVisible()).toBe(false);
    expect(await page.locator("#shown").textContent()).toBe("2 of 5 shown");
    await page.locator("#area-filter").selectOption("oauth");
    expect(await visibleIds()).toEqual(["OAUTH-REDIRECT-007"]);
    await page.locator("#area-filter").selectOption("");
    await page.getByLabel("passed (2)").check();
    await page.getByLabel("skipped (1)").check();
    await page.getByLabel("Filter by text").fill("etag");
    expect(await visibleIds()).toEqual(["FEEDS-ETAG-001"]);
    await page.getByLabel("Filter by text").fill("");
    expect(await visibleIds()).toHaveLength(5);
  });

  it("requests nothing but the file and reports no errors", async (ctx) => {
    if (!browser) return ctx.skip(skipReason);
    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);
  });
});
