/**
 * `service-contract diff` through the real CLI: exit codes (0 nothing at the --fail-on level,
 * 1 a change at it, 2 bad usage or an unreadable contract, with one line on stderr), the three
 * formats, and `--base-ref` reading spec/ from a git revision of a repository made here.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copySpec, editOpenApi, editSchema, removeCopies } from "../diff/contract-copy.ts";
import { runCli, runCliInProcess, type CliResult } from "./run-cli.ts";

afterAll(removeCopies);

function oneLine(r: CliResult, message: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.split("\n").filter((l) => l.trim() !== "");
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

/** A copy where a required response field is gone (breaking for clients and receivers). */
function breakingCopy(): string {
  const spec = copySpec();
  editSchema(spec, "user.json", (s) => {
    delete s.properties.site_admin;
    s.required = s.required.filter((r: string) => r !== "site_admin");
  });
  return spec;
}

/** A copy with one optional response field more (a change that breaks nobody). */
function harmlessCopy(): string {
  const spec = copySpec();
  editSchema(spec, "label.json", (s) => (s.properties.default = { type: "boolean" }));
  return spec;
}

describe("service-contract diff", () => {
  it("exits 0 with 'no changes' for the contract against a copy of itself (the real binary)", async () => {
    const r = await runCli(["diff", "spec", copySpec()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/: no changes\n$/);
    expect(r.stderr).toBe("");
  });

  it("exits 1 on a breaking change, in text, and names whom it breaks (the real binary)", async () => {
    const r = await runCli(["diff", "spec", breakingCopy()]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/breaking changes? \(clients \d+, receivers \d+\)/);
    expect(r.stdout).toMatch(/BREAKING for clients: response 200 \(application\/json\): required property site_admin removed/);
    expect(r.stdout).toMatch(/BREAKING for receivers: payload \(application\/json\): required property site_admin removed\n {2}webhooks [a-z_, ]*push/);
    expect(r.stdout).toContain("at schemas/user.json#/properties/site_admin");
  });

  it("--fail-on none exits 0 on a breaking change; --fail-on any exits 1 on a harmless one, which the default lets pass", async () => {
    const breaking = breakingCopy();
    const harmless = harmlessCopy();
    expect((await runCliInProcess(["diff", "spec", breaking, "--fail-on", "none"])).code).toBe(0);
    const byDefault = await runCliInProcess(["diff", "spec", harmless]);
    expect(byDefault.code, byDefault.stdout).toBe(0);
    expect(byDefault.stdout).toMatch(/0 breaking changes, \d+ others?/);
    expect(byDefault.stdout).toMatch(/not breaking: response 200 \(application\/json\): optional property default added/);
    expect((await runCliInProcess(["diff", "spec", harmless, "--fail-on", "any"])).code).toBe(1);
    expect((await runCliInProcess(["diff", "spec", harmless, "--fail-on", "breaking"])).code).toBe(0);
  });

  it("--format json lists every change under changes with breaking, for, operation or webhook, pointer and message", async () => {
    const r = await runCliInProcess(["diff", "spec", breakingCopy(), "--format", "json"]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { breaking: number; changes: Record<string, unknown>[]; notes: string[] };
    expect(out.breaking).toBe(out.changes.length);
    expect(out.changes).toContainEqual(
      expect.objectContaining({ kind: "webhook-property-removed", breaking: true, for: ["receivers"], webhook: "push", pointer: "#/webhooks/push/post/requestBody/content/application~1json/schema/properties/sender/properties/site_admin", message: "payload (application/json): required property site_admin removed" }),
    );
    expect(out.changes).toContainEqual(expect.objectContaining({ kind: "response-property-removed", for: ["clients"], operation: "listPublicEvents" }));
    for (const c of out.changes) expect(Object.keys(c)).toEqual(expect.arrayContaining(["breaking", "for", "pointer", "message"]));
  });

  it("--format markdown is a table for a pull request comment", async () => {
    const r = await runCliInProcess(["diff", "spec", breakingCopy(), "--format", "markdown"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^### Contract changes: \d+ breaking changes/);
    expect(r.stdout).toContain("| | breaks | change | concerns | where |");
    expect(r.stdout).toMatch(/\| \*\*breaking\*\* \| receivers \| payload \(application\/json\): required property site_admin removed \| webhooks [^|]*push[^|]* \| `schemas\/user.json#\/properties\/site_admin` \|/);
  });

  it("--help exits 0 and shows the pipeline example", async () => {
    const r = await runCliInProcess(["diff", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("service-contract diff --base-ref main spec/");
    expect(r.stdout).toMatch(/Exit codes: 0 .* 1 .* 2 /);
  });

  describe("bad usage or a contract that cannot be read: exit 2, one line", () => {
    it("one contract without --base-ref (the real binary)", async () => oneLine(await runCli(["diff", "spec"]), /^service-contract: give a base and a head contract/));
    it("three contracts", async () => oneLine(await runCliInProcess(["diff", "spec", "spec", "spec"]), /give a base and a head contract .* got 3/));
    it("two contracts with --base-ref", async () => oneLine(await runCliInProcess(["diff", "--base-ref", "HEAD", "spec", "spec"]), /with --base-ref give only the head contract/));
    it("an unknown --format", async () => oneLine(await runCliInProcess(["diff", "spec", "spec", "--format", "html"]), /--format <format>' argument 'html' is invalid/));
    it("an unknown --fail-on", async () => oneLine(await runCliInProcess(["diff", "spec", "spec", "--fail-on", "warning"]), /--fail-on <level>' argument 'warning' is invalid/));
    it("a folder that does not exist", async () => oneLine(await runCliInProcess(["diff", "spec", "no/such/spec"]), /no such file or folder: no\/such\/spec/));
    it("a folder without openapi.yaml", async () => oneLine(await runCliInProcess(["diff", "spec", "test"]), /test is a folder without openapi.yaml/));
    it("a root document that is not YAML", async () => {
      const spec = copySpec();
      writeFileSync(join(spec, "openapi.yaml"), "openapi: 3.1.0\npaths: [unclosed\n");
      oneLine(await runCliInProcess(["diff", "spec", spec]), /openapi.yaml is not valid YAML/);
    });
    it("a schema file that is not JSON", async () => {
      const spec = copySpec();
      writeFileSync(join(spec, "schemas", "label.json"), "{ not json");
      oneLine(await runCliInProcess(["diff", spec, "spec"]), /label.json is not valid JSON/);
    });
    it("a $ref to nowhere", async () => {
      const spec = copySpec();
      editOpenApi(spec, (d) => (d.paths["/events"].get.responses["200"] = { $ref: "#/components/responses/Nowhere" }));
      oneLine(await runCliInProcess(["diff", "spec", spec]), /\$ref to openapi.yaml#\/components\/responses\/Nowhere, which does not exist/);
    });
    it("a $ref to a missing file", async () => {
      const spec = copySpec();
      editSchema(spec, "issue.json", (s) => (s.properties.user = { $ref: "nobody.json" }));
      oneLine(await runCliInProcess(["diff", "spec", spec]), /\$ref nobody.json names a file that does not exist/);
    });
    it("--base-ref without a head where there is no spec/", async () => oneLine(await runCliInProcess(["diff", "--base-ref", "HEAD"], { cwd: tmpdir() }), /no such file or folder: spec$/));
    it("--base-ref outside a git repository", async () => oneLine(await runCliInProcess(["diff", "--base-ref", "HEAD", copySpec()]), /is not inside a git repository/));
    it("--base-ref with a revision that does not exist", async () => oneLine(await runCliInProcess(["diff", "--base-ref", "no-such-branch-here", "spec"]), /no-such-branch-here is no revision of the repository/));
    it("--base-ref that looks like an option", async () => oneLine(await runCliInProcess(["diff", "--base-ref=--output=x", "spec"]), /--base-ref takes a revision/));
  });

  describe("--base-ref: the head's folder at a git revision", () => {
    const repo = mkdtempSync(join(tmpdir(), "diff-git-"));
    afterAll(() => rmSync(repo, { recursive: true, force: true }));
    const git = (...args: string[]) => {
      const r = spawnSync("git", ["-c", "user.name=diff test", "-c", "user.email=diff@example.test", "-c", "init.defaultBranch=main", ...args], { cwd: repo });
      if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
      return r.stdout.toString();
    };

    it("compares the working tree's spec/ with main's, in a pull request's pipeline", async () => {
      git("init", "-q");
      const spec = copySpec();
      spawnSync("cp", ["-r", spec, join(repo, "spec")]);
      git("add", "spec");
      git("commit", "-qm", "the contract");
      // Nothing changed yet.
      const same = await runCliInProcess(["diff", "--base-ref", "main", "spec/"], { cwd: repo });
      expect(same.code, same.stderr).toBe(0);
      expect(same.stdout).toBe("spec/ at main → spec/: no changes\n");
      // The branch removes a webhook; main still has it.
      git("checkout", "-qb", "feature");
      editOpenApi(join(repo, "spec"), (d) => delete d.webhooks.watch);
      const changed = await runCliInProcess(["diff", "--base-ref", "main", "spec/", "--format", "json"], { cwd: repo });
      expect(changed.code, changed.stderr).toBe(1);
      const out = JSON.parse(changed.stdout) as { base: string; changes: { kind: string; for: string[]; webhook?: string }[] };
      expect(out.base).toBe("spec/ at main");
      expect(out.changes).toEqual([expect.objectContaining({ kind: "webhook-removed", for: ["receivers"], webhook: "watch" })]);
      // Committed on the branch: HEAD has it too, main does not; a root document names the folder as well.
      git("commit", "-qam", "drop watch");
      expect((await runCliInProcess(["diff", "--base-ref", "HEAD", "spec/"], { cwd: repo })).code).toBe(0);
      // Without a head, the working folder's spec/.
      const byDefault = await runCliInProcess(["diff", "--base-ref", "main", "--format", "json"], { cwd: repo });
      expect(byDefault.code).toBe(1);
      expect(JSON.parse(byDefault.stdout)).toMatchObject({ base: "spec at main", head: "spec" });
      expect((await runCliInProcess(["diff", "--base-ref", "main", "spec/openapi.yaml"], { cwd: repo })).code).toBe(1);
      expect((await runCliInProcess(["diff", "--base-ref", "HEAD~1", join(repo, "spec")])).code).toBe(1);
    });

    it("a contract folder that did not exist at the revision is one line, exit 2", async () => {
      spawnSync("cp", ["-r", join(repo, "spec"), join(repo, "spec-next")]);
      oneLine(await runCliInProcess(["diff", "--base-ref", "main", "spec-next"], { cwd: repo }), /--base-ref: spec-next does not exist at main/);
    });
  });
});
