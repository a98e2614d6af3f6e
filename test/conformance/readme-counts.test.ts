/**
 * The counts conformance/README.md and README.md give for the suites are the registries' own:
 * they went stale once ("Six areas, 149 cases" beside "Seven areas, 175 cases" while there were
 * 182), and a reader plans a run by them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ALL_CASES } from "../../conformance/cases/index.ts";
import { CLIENT_CASES } from "../../conformance/consumers/oauth-client/cases.ts";
import { RECEIVER_CASES } from "../../conformance/consumers/receiver/cases.ts";
import { repoRoot } from "../repo-root.ts";

const guide = readFileSync(join(repoRoot, "conformance/README.md"), "utf8");
const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
const WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

describe("the suites' sizes in the READMEs", () => {
  it("conformance/README.md: the server suite's areas and cases", () => {
    const said = /\b(\w+) areas, (\d+) cases\b/.exec(guide);
    expect(said, "conformance/README.md names no 'N areas, M cases'").not.toBeNull();
    const areas = new Set(ALL_CASES.map((c) => c.area)).size;
    expect({ areas: WORDS.indexOf(said![1]!.toLowerCase()), cases: Number(said![2]) }).toEqual({ areas, cases: ALL_CASES.length });
  });

  it("the receiver and OAuth-client suites' case counts", () => {
    expect(Number(/area `receiver`, (\d+) cases/.exec(guide)?.[1])).toBe(RECEIVER_CASES.length);
    expect(Number(/area `oauth-client`, (\d+) cases/.exec(guide)?.[1])).toBe(CLIENT_CASES.length);
    expect(Number(/the receiver suite against it — (\d+) cases/.exec(readme.replace(/\s+/g, " "))?.[1])).toBe(RECEIVER_CASES.length);
  });
});
