/**
 * `service-contract/conformance` is a public entry (package.json `exports`): it loads through the
 * package name — with a TypeScript loader, as the rest of the toolkit runs — and offers the runner,
 * the reference run, the profile loader, the registered cases and the reporters.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ceiling } from "../ceilings.ts";

const root = join(import.meta.dirname, "../..");

it("imports through the package export and runs a case", () => {
  const script = `
    import * as suite from "service-contract/conformance";
    const summary = await suite.runSuite({
      baseUrl: "http://127.0.0.1:9", authUrl: "http://127.0.0.1:9", profile: { users: [{ login: "a" }] }, receiverHost: false,
      cases: [{ id: "X-EXPORT-001", title: "t", area: "contract", seed: "s", async run(ctx) { suite.check.equal(1, 2, "one is two", "/x"); } }],
    });
    console.log(JSON.stringify({
      exports: ["runSuite", "runReference", "loadProfile", "checkProfile", "startReceiver", "htmlReport", "junitXml", "writeReports", "ConsoleReporter", "runReceiverSuite", "runOAuthClientSuite", "loadClientProfile"].filter((n) => typeof suite[n] !== "function"),
      cases: suite.ALL_CASES.length > 0,
      failure: summary.results[0].failure,
    }));`;
  const out = execFileSync(process.execPath, ["--conditions=service-contract-source", "--import", "tsx", "--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  expect(JSON.parse(out)).toEqual({ exports: [], cases: true, failure: { message: "one is two", expected: 2, actual: 1, pointer: "/x", fatal: true } });
}, ceiling(60_000));
