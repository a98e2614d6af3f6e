/**
 * The conformance HTML report reads well on a phone (420 px) and on a desktop (1280 px) — issue
 * 25, point 5. The report is a real one: the suite run against the reference through the fault
 * proxy (test/browser/report-run.ts), so it has failures with their expected/actual and curl
 * boxes, notes, skipped cases and the Rules section with the rules' Markdown. At each width,
 * Chromium opens it from disk and the page is measured (test/browser/report-layout.ts): nothing
 * wider than the viewport, no box whose content is cut or spills, the filter's placeholder whole,
 * IDs and durations on one line, no word in a code box broken although it fits, case titles given
 * most of the row, the filter panel on the card column, and the rules' Markdown rendered.
 * Screenshots go to test-results/ (gitignored).
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunSummary } from "../../conformance/core/types.ts";
import { htmlReport } from "../../conformance/report/html.ts";
import { ceiling } from "../ceilings.ts";
import { chromiumSkip, launchChromium, saveArtifact } from "./chromium.ts";
import { measureLayout } from "./report-layout.ts";
import { reportRun } from "./report-run.ts";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("conformance HTML report layout in Chromium", () => {
  let browser: Browser | undefined;
  let skipReason: string | undefined;
  let summary: RunSummary;
  let url: string;
  const problems: string[] = [];

  beforeAll(async () => {
    skipReason = await chromiumSkip(); // throws under CI when Chromium is missing
    if (skipReason !== undefined) {
      console.warn(`Skipping browser tests: ${skipReason}`);
      return;
    }
    summary = await reportRun();
    url = pathToFileURL(saveArtifact("conformance-report-layout.html", htmlReport(summary))).href;
    browser = await launchChromium();
  }, ceiling(120_000));

  afterAll(async () => {
    await browser?.close();
  });

  async function open(width: number): Promise<Page> {
    const page = await browser!.newPage({ viewport: { width, height: 900 } });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("console", (msg) => {
      if (msg.type() === "error" || msg.type() === "warning") problems.push(`console: ${msg.text()}`);
    });
    await page.goto(url);
    return page;
  }

  async function screenshot(page: Page, name: string): Promise<string> {
    const path = saveArtifact(name, await page.screenshot({ fullPage: true }));
    const png = readFileSync(path);
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE), `${path} is a PNG`).toBe(true);
    expect(png.length).toBeGreaterThan(10_000);
    return path;
  }

  it("the run behind the report has failures with code boxes, notes, skips and rules", (ctx) => {
    if (!browser) return ctx.skip(skipReason);
    const failed = summary.results.filter((r) => r.status === "failed");
    expect(failed.map((r) => r.id)).toEqual(expect.arrayContaining(["OAUTH-REDIRECT-007", "FEEDS-VIS-002", "FEEDS-VIS-003"]));
    expect(failed.some((r) => r.failure?.curl && r.failure.actual !== undefined)).toBe(true);
    expect(summary.results.some((r) => r.status === "skipped" && r.reason === "the run has no webhook receiver")).toBe(true);
    expect(summary.results.some((r) => r.notes.length > 0)).toBe(true);
    expect(summary.results.some((r) => (r.rules ?? []).length > 0)).toBe(true);
  });

  for (const width of [420, 1280]) {
    it(`at ${width} px nothing is wider than the viewport, cut or broken mid-word`, async (ctx) => {
      if (!browser) return ctx.skip(skipReason);
      const page = await open(width);
      try {
        // Folded cases too: a passed case's details must read as well once opened.
        await page.locator("article.case details:not([open]) summary").evaluateAll((summaries) => summaries.forEach((s) => (s as HTMLElement).click()));
        const found = await page.evaluate(measureLayout);
        ctx.annotate(`at ${width} px: scrollWidth ${found.scrollWidth}, narrowest title ${(found.minTitleShare * 100).toFixed(0)}% of its row, filter panel ${found.filterEdges.left}–${found.filterEdges.right}, cards ${found.caseEdges.left}–${found.caseEdges.right}; ${found.outside.length} outside the viewport, ${found.overflowing.length} overflowing, ${found.placeholderCut.length} placeholders cut, ${found.wrapped.length} IDs/durations wrapped, ${found.brokenWords.length} words broken`);
        ctx.annotate(`screenshot: ${await screenshot(page, `conformance-report-${width}.png`)}`);
        expect.soft(found.scrollWidth).toBeLessThanOrEqual(width);
        expect.soft(found.outside).toEqual([]);
        expect.soft(found.overflowing).toEqual([]);
        expect.soft(found.placeholderCut).toEqual([]);
        expect.soft(found.wrapped).toEqual([]);
        expect.soft(found.brokenWords).toEqual([]);
        // One or two words a line is not a title: each gets at least 60% of its case's row.
        expect.soft(found.minTitleShare).toBeGreaterThanOrEqual(0.6);
        expect.soft(Math.abs(found.filterEdges.left - found.caseEdges.left)).toBeLessThanOrEqual(1);
        expect.soft(Math.abs(found.filterEdges.right - found.caseEdges.right)).toBeLessThanOrEqual(1);
      } finally {
        await page.close();
      }
    });
  }

  it("renders the rules' Markdown: code and emphasis, no literal backticks or asterisks", async (ctx) => {
    if (!browser) return ctx.skip(skipReason);
    const page = await open(1280);
    try {
      const rules = page.locator("section.rules li.rule > p:not(.cases)");
      expect(await rules.count()).toBeGreaterThan(5);
      const texts = await rules.allInnerTexts();
      expect(texts.filter((t) => t.includes("`") || /\*\*\S/.test(t))).toEqual([]);
      expect(await page.locator("section.rules li.rule > p code").count()).toBeGreaterThan(0);
      expect(await page.locator("section.rules li.rule > p strong").count()).toBeGreaterThan(0);
      // The rules' text is the project's own, but rendered with raw HTML off: nothing in it runs.
      expect(await page.locator("script").count()).toBe(1);
      ctx.annotate(`screenshot: ${await screenshot(page, "conformance-report-rules-1280.png")}`);
    } finally {
      await page.close();
    }
    expect(problems).toEqual([]);
  });
});
