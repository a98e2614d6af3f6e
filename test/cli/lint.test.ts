/**
 * `service-contract lint` over real files: a copy of the spec with one broken $ref fails with
 * exit 1 and names the JSON pointer of the broken reference (that the committed spec is clean is
 * test/repository/checks.test.ts's, in the core half of the suite).
 *
 * Each child costs ~0.7 s of CPU to start and a lint child ~2 s more to load swagger-parser and
 * Redocly, so the real binary runs once per exit code and flag, and the cases that repeat one of
 * those code paths with other inputs call the CLI's `main` in this process (runCliInProcess: the
 * same exit code and output), where the libraries load once. Every lint also starts Redocly's
 * own CLI as a child (~2 s of CPU), so the breaks that differ only in where they are made share
 * one broken copy and one lint (otherBreaksLint): each case still finds its own error line.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { repoRoot, runCli, runCliInProcess, type CliResult } from "./run-cli.ts";
import { ceiling } from "../ceilings.ts";

/** A lint run loads the spec twice (swagger-parser, Redocly): seconds alone, much longer on a busy CI machine. */
const LINT_TIMEOUT = ceiling(45_000);

const scratch = mkdtempSync(join(tmpdir(), "lint-test-"));

/**
 * A copy of spec/ at `dir`, without examples/ (700 of its 830 files, 5 of its 6 MB): neither
 * swagger-parser nor Redocly reads a file there, openapi.yaml's examples being inline.
 */
function copySpec(dir: string): void {
  const examples = join(repoRoot, "spec", "examples");
  cpSync(join(repoRoot, "spec"), dir, { recursive: true, filter: (source) => source !== examples });
}

/** The subcommand names of `service-contract --help` (commander's "Commands:" list, without `help`). */
function subcommands(help: string): string[] {
  const section = help.split("Commands:")[1] ?? "";
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!).filter((name) => name !== "help");
}
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of spec/ with the component schema ActivityEvent pointing at a file that does not exist. */
function brokenCopy(): { spec: string; pointer: string } {
  const dir = join(scratch, "broken");
  copySpec(dir);
  const spec = join(dir, "openapi.yaml");
  const yaml = parseDocument(readFileSync(spec, "utf8"));
  yaml.setIn(["components", "schemas", "ActivityEvent", "$ref"], "schemas/no-such-schema.json");
  writeFileSync(spec, yaml.toString());
  return { spec, pointer: "#/components/schemas/ActivityEvent" };
}

/** Other ways one `$ref` breaks (a local pointer to nothing, a file ref inside a schema file), and a Redocly-only error. */
const OTHER_BREAKS: { name: string; pointer: string; code: string; breakIt: (dir: string) => void }[] = [
  {
    name: "a local #/components ref in an operation",
    pointer: "openapi.yaml#/paths/~1events/get/responses/200",
    code: "REF_MISSING",
    breakIt: (dir) => {
      const spec = join(dir, "openapi.yaml");
      const yaml = parseDocument(readFileSync(spec, "utf8"));
      yaml.setIn(["paths", "/events", "get", "responses", "200", "$ref"], "#/components/responses/NoSuchResponse");
      writeFileSync(spec, yaml.toString());
    },
  },
  {
    name: "a file ref inside a schema file",
    pointer: "schemas/issue.json#/properties/milestone/anyOf/0",
    code: "REF_UNRESOLVED",
    breakIt: (dir) => {
      const file = join(dir, "schemas/issue.json");
      const schema = JSON.parse(readFileSync(file, "utf8")) as { properties: { milestone: { anyOf: { $ref?: string }[] } } };
      schema.properties.milestone.anyOf[0]!.$ref = "no-such-milestone.json";
      writeFileSync(file, JSON.stringify(schema, null, 2));
    },
  },
  {
    // swagger-parser accepts this (the OpenAPI schema allows any name); only Redocly's
    // security-defined rule catches it, so this proves Redocly runs with the committed config.
    name: "a security requirement naming no scheme (Redocly only)",
    pointer: "openapi.yaml#/paths/~1events/get/security/0/nosuch",
    code: "LINT (security-defined)",
    breakIt: (dir) => {
      const spec = join(dir, "openapi.yaml");
      const yaml = parseDocument(readFileSync(spec, "utf8"));
      yaml.setIn(["paths", "/events", "get", "security"], yaml.createNode([{ nosuch: [] }]));
      writeFileSync(spec, yaml.toString());
    },
  },
];

let otherBreaks: Promise<CliResult> | undefined;

/**
 * One copy of spec/ with every break of OTHER_BREAKS made in it, linted once in this process:
 * swagger-parser and Redocly report every problem they find, not the first, so each break's
 * error line is in this one report as it was in a report of its own.
 */
function otherBreaksLint(): Promise<CliResult> {
  otherBreaks ??= (async () => {
    const dir = join(scratch, "other-breaks");
    copySpec(dir);
    for (const b of OTHER_BREAKS) b.breakIt(dir);
    return runCliInProcess(["lint", "--spec", join(dir, "openapi.yaml")]);
  })();
  return otherBreaks;
}

describe("service-contract lint", () => {
  // That the committed spec passes (exit 0, zero errors) is one of the repository's checks, in
  // the core half of the suite: test/repository/checks.test.ts.

  it("fails with exit 1 and the JSON pointer when a $ref is broken", async () => {
    const { spec, pointer } = brokenCopy();
    const result = await runCli(["lint", "--spec", spec]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`REF_UNRESOLVED`);
    expect(result.stdout).toContain(pointer);
  }, LINT_TIMEOUT);

  it.each(OTHER_BREAKS.map((b) => [b.name, b] as const))("fails with exit 1 and the JSON pointer for %s", async (_name, b) => {
    const result = await otherBreaksLint();
    expect(result.code).toBe(1);
    const line = result.stdout.split("\n").find((l) => l.startsWith(`error ${b.code} `));
    expect(line, result.stdout).toBeDefined();
    expect(line).toContain(b.pointer);
  }, LINT_TIMEOUT);

  it("reports problems as JSON with --json", async () => {
    const { spec, pointer } = brokenCopy();
    const result = await runCli(["lint", "--spec", spec, "--json"]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { valid: boolean; problems: { code: string; pointer: string }[] };
    expect(report.valid).toBe(false);
    expect(report.problems).toContainEqual(expect.objectContaining({ code: "REF_UNRESOLVED", pointer }));
  }, LINT_TIMEOUT);

  it("lints a spec with no redocly.yaml beside it with Redocly's recommended rules, naming its files as given", async () => {
    const dir = join(scratch, "no-config");
    copySpec(dir);
    rmSync(join(dir, "redocly.yaml"));
    const spec = relative(repoRoot, join(dir, "openapi.yaml"));
    const result = await runCliInProcess(["lint", "--spec", spec]);
    // Not a usage error: the recommended rules run, and find what spec/redocly.yaml turns off
    // (no-ambiguous-paths on the issue events paths), in the file as it was named.
    expect([0, 1], result.stderr).toContain(result.code);
    expect(result.stderr).toBe("");
    const line = result.stdout.split("\n").find((l) => /^(error|warning) LINT \(no-ambiguous-paths\) /.test(l));
    expect(line, result.stdout).toBeDefined();
    expect(line).toContain(` ${spec}#/paths/`);
  }, LINT_TIMEOUT);

  it("says each option's default once in --help", async () => {
    const help = (await runCliInProcess(["lint", "--help"])).stdout;
    const specOption = help.slice(help.indexOf("--spec"), help.indexOf("--config"));
    expect(specOption.match(/default/g)).toHaveLength(1);
  });

  it.each([
    ["a spec file that does not exist", ["--spec", "nope.yaml"], /no such file/, runCli],
    ["a Redocly config that does not exist", ["--config", "nope-redocly.yaml"], /no Redocly config/, runCliInProcess],
  ])("exits 2 for %s", async (_what, args, message, run) => {
    const result = await run(["lint", ...args.map((a) => (a.startsWith("nope") ? join(scratch, a) : a))]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});

describe("the CLI's usage contract", () => {
  it("lists its subcommands in --help", async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    expect(subcommands(result.stdout)).toEqual(expect.arrayContaining(["generate", "lint", "mock", "validate", "serve", "simulate", "conformance"]));
  });

  // In this process: commander prints the same help; the binary's --help is the test above.
  it("has --help with an example on every subcommand", async () => {
    const subs = subcommands((await runCliInProcess(["--help"])).stdout);
    expect(subs.length).toBeGreaterThanOrEqual(7);
    for (const sub of subs) {
      const result = await runCliInProcess([sub, "--help"]);
      expect(result.code, `${sub} --help`).toBe(0);
      expect(result.stdout, `${sub} --help`).toMatch(new RegExp(`^Usage: service-contract ${sub}`, "m"));
      expect(result.stdout, `${sub} --help`).toMatch(/Examples:\n\s+service-contract /);
    }
  }, ceiling(120_000));

  it("an unknown option exits 2", async () => {
    const result = await runCliInProcess(["lint", "--bogus"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown option/);
  });

  it("an unknown subcommand exits 2", async () => {
    const result = await runCli(["frobnicate"]);
    expect(result.code).toBe(2);
  });
});
