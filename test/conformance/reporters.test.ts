/**
 * The file reporters on a run with every kind of result (passed, failed with details, skipped,
 * across areas, with hostile text from the target): JUnit parses as XML with the right counts
 * and details, results.json matches report/results.schema.json, the HTML page escapes
 * everything and fetches nothing, and --reporter names are checked.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { createAjv } from "../../generators/ajv.ts";
import { htmlReport, junitXml, parseReporters, prepareReportDir, writeReports } from "../../conformance/report/index.ts";
import { runSuite } from "../../conformance/run/runner.ts";
import { FAKE_CASES, PROFILE, startFakeTarget } from "./fake-target.ts";
import { SAMPLE } from "./sample-summary.ts";
import { renderRuleText } from "../../conformance/report/markdown.ts";

const schema = JSON.parse(readFileSync(join(import.meta.dirname, "../../conformance/report/results.schema.json"), "utf8")) as object;
const validateResults = createAjv([]).compile(schema);

describe("--reporter", () => {
  it.each([
    ["console", ["console"]],
    ["console,junit,json,html", ["console", "junit", "json", "html"]],
    [" html , html,json", ["html", "json"]],
  ])("%s", (value, expected) => {
    expect(parseReporters(value)).toEqual(expected);
  });

  it.each([
    ["console,xml", /unknown reporter xml; use console, junit, json, html/],
    [",", /needs at least one/],
  ])("refuses %s", (value, message) => {
    expect(() => parseReporters(value)).toThrow(message);
  });
});

describe("JUnit XML", () => {
  const xml = junitXml(SAMPLE);
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (name) => ["testsuite", "testcase", "property"].includes(name) }).parse(xml) as {
    testsuites: { tests: string; failures: string; skipped: string; testsuite: { name: string; tests: string; failures: string; skipped: string; testcase: Record<string, any>[] }[] };
  };

  it("is well-formed XML even with control characters and markup in the results", () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).not.toContain("<script>");
  });

  it("counts tests, failures and skips overall and per area", () => {
    expect(parsed.testsuites).toMatchObject({ tests: "5", failures: "2", skipped: "1" });
    expect(parsed.testsuites.testsuite.map((s) => [s.name, s.tests, s.failures, s.skipped])).toEqual([
      ["oauth", "2", "1", "0"],
      ["feeds", "2", "1", "0"],
      ["webhooks", "1", "0", "1"],
    ]);
  });

  it("names each testcase by ID and title, with the failure's details and the skip reason", () => {
    const cases = parsed.testsuites.testsuite.flatMap((s) => s.testcase);
    const failed = cases.find((c) => c.name.startsWith("OAUTH-REDIRECT-007"))!;
    expect(failed.classname).toBe("conformance.oauth");
    expect(failed.time).toBe("0.030");
    expect(failed.failure.message).toBe("the authorize page accepted the redirect_uri");
    expect(failed.failure["#text"]).toContain("pointer: /status");
    expect(failed.failure["#text"]).toContain(`"location": "http://127.0.0.1:8080/callbackx?code=abc"`);
    expect(failed.failure["#text"]).toContain("curl: curl -i -X GET 'http://127.0.0.1:3001/login/oauth/authorize?client_id=x&redirect_uri=");
    expect(failed["system-out"]).toBe("tried http://127.0.0.1:8080/callbackx");
    const hostile = cases.find((c) => c.name.startsWith("FEEDS-PRIVATE-001"))!;
    expect(hostile.failure.message).toBe(`<script>alert("x")</script> & ]]> \ufffd\ufffd done`);
    const skipped = cases.find((c) => c.name.startsWith("WEBHOOK-PING-001"))!;
    expect(skipped.skipped.message).toBe("the run has no webhook receiver");
    expect(cases.find((c) => c.name.startsWith("FEEDS-ETAG-001"))).not.toHaveProperty("failure");
  });
});

describe("results.json", () => {
  it("the sample and a real run both match results.schema.json", async () => {
    expect(validateResults(SAMPLE), JSON.stringify(validateResults.errors)).toBe(true);
    const target = await startFakeTarget();
    try {
      const summary = await runSuite({ baseUrl: target.url, authUrl: target.url, profile: PROFILE, cases: FAKE_CASES, receiverHost: false });
      const roundTrip = JSON.parse(JSON.stringify(summary)) as unknown;
      expect(validateResults(roundTrip), JSON.stringify(validateResults.errors)).toBe(true);
    } finally {
      await target.close();
    }
  });

  it("the schema rejects a failed result without its failure", () => {
    const broken = structuredClone(SAMPLE);
    delete broken.results[1]!.failure;
    expect(validateResults(broken)).toBe(false);
  });
});

describe("HTML report", () => {
  const html = htmlReport(SAMPLE);

  it("escapes everything from the run", () => {
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; ]]&gt;");
    expect(html.match(/<script>/g)).toHaveLength(1); // the report's own filter script
  });

  it("is self-contained: no external reference, and a policy that allows nothing else", () => {
    expect(html).not.toMatch(/(src|href)=/);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-[^&]+&#39;; script-src &#39;sha256-/);
  });

  it("has the counts, every case, failures open with their details", () => {
    for (const r of SAMPLE.results) expect(html).toContain(`id="case-${r.id}"`);
    expect(html).toMatch(/<div class="count failed" data-count="failed"><b>2<\/b>failed<\/div>/);
    expect(html).toMatch(/<article class="case failed" id="case-OAUTH-REDIRECT-007"[^>]*>\n<details open>/);
    expect(html).toMatch(/<article class="case passed" id="case-FEEDS-ETAG-001"[^>]*>\n<details>/);
    expect(html).toContain("<dt>Pointer</dt><dd>/status</dd>");
  });
});

describe("the rules' Markdown in the HTML report", () => {
  it("renders code, strong and emphasis as CommonMark does, and leaves snake_case alone", () => {
    expect(renderRuleText("**Reset** — `X-RateLimit-Reset` in _epoch_ seconds; user_verification_uri and `a*b*c`")).toBe(
      "<strong>Reset</strong> — <code>X-RateLimit-Reset</code> in <em>epoch</em> seconds; user_verification_uri and <code>a*b*c</code>",
    );
  });

  it("escapes markup instead of running it, in code spans and outside them, and drops script links", () => {
    const html = renderRuleText('`<Pascal(event)>Event` <script>alert("x")</script> <img src=x onerror=alert(1)> [click](javascript:alert(1))');
    expect(html).toBe('<code>&lt;Pascal(event)&gt;Event</code> &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt; [click](javascript:alert(1))');
  });
});

describe("writeReports", () => {
  it("writes the chosen files into --out (created if missing) and nothing for console", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "sc-report-")), "nested", "out");
    const written = writeReports(SAMPLE, ["console", "junit", "json", "html"], dir);
    expect(written).toEqual([join(dir, "junit.xml"), join(dir, "results.json"), join(dir, "report.html")]);
    expect(readdirSync(dir).sort()).toEqual(["junit.xml", "report.html", "results.json"]);
    expect(JSON.parse(readFileSync(join(dir, "results.json"), "utf8"))).toEqual(SAMPLE);
    expect(writeReports(SAMPLE, ["console"], join(dir, "none"))).toEqual([]);
  });
});

describe("prepareReportDir", () => {
  it("makes --out for the file reporters only, and throws when it cannot be written", () => {
    const root = mkdtempSync(join(tmpdir(), "sc-report-"));
    expect(prepareReportDir(["console"], join(root, "none"))).toEqual([]);
    expect(existsSync(join(root, "none"))).toBe(false);
    expect(prepareReportDir(["console", "html", "junit"], join(root, "a", "b"))).toEqual(["html", "junit"]);
    expect(readdirSync(join(root, "a", "b"))).toEqual([]);
    writeFileSync(join(root, "file"), "");
    expect(() => prepareReportDir(["json"], join(root, "file", "out"))).toThrow(expect.objectContaining({ code: "ENOTDIR" }));
  });
});
