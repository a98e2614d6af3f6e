/**
 * `service-contract diff` through the real CLI: exit codes (0 nothing at the --fail-on level,
 * 1 a change at it, 2 bad usage or an unreadable contract, with one line on stderr), the three
 * formats, and `--base-ref` reading spec/ from a git revision of a repository made here.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diffContracts, loadContract } from "../../diff/index.ts";
import { checkoutAt } from "../../diff/git-revision.ts";
import { copySpec, editOpenApi, editSchema, removeCopies, SPEC } from "../diff/contract-copy.ts";
import { runCli, runCliInProcess, type CliResult } from "./run-cli.ts";
import { ceiling } from "../ceilings.ts";

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
    expect(byDefault.stdout).toMatch(/0 breaking changes, 0 unknown, \d+ safe/);
    expect(byDefault.stdout).toMatch(/\nsafe: response 200 \(application\/json\): optional property default added/);
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

  describe("patterns compared by their languages, and 'unknown' its own level (issue 42)", () => {
    /** A copy with one pattern replaced. */
    const withPattern = (file: string, property: string, pattern: string) => {
      const spec = copySpec();
      editSchema(spec, file, (s) => (s.properties[property].pattern = pattern));
      return spec;
    };

    it("a request pattern tightened (hook name) breaks clients: exit 1, with the string now refused (the real binary)", async () => {
      const r = await runCli(["diff", "spec", withPattern("hook-create-request.json", "name", "^[a-z][a-z0-9_-]*$")]);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).toMatch(/: 2 breaking changes \(clients 2\), 0 unknown, 0 safe\n/);
      expect(r.stdout).toContain('BREAKING for clients: request body (application/json): pattern changed from "^[a-z0-9][a-z0-9_-]*$" to "^[a-z][a-z0-9_-]*$": it accepts less ("0", accepted before, is now refused)');
    });

    it("a response pattern loosened (hashed_token upper-case hex) breaks clients: exit 1", async () => {
      const r = await runCliInProcess(["diff", "spec", withPattern("authorization.json", "hashed_token", "^[0-9a-fA-F]{64}$"), "--format", "json"]);
      expect(r.code, r.stdout).toBe(1);
      const out = JSON.parse(r.stdout) as { breaking: number; unknown: number; changes: { kind: string; level: string; for: string[] }[] };
      expect(out.breaking).toBe(out.changes.length);
      expect(out.breaking).toBeGreaterThan(0);
      for (const c of out.changes) expect([c.kind, c.level, c.for]).toEqual(["response-pattern-changed", "breaking", ["clients"]]);
    });

    it("[0-9] → \\d is no change: exit 0", async () => {
      const r = await runCliInProcess(["diff", "spec", withPattern("authorization.json", "hashed_token", "^[\\da-f]{64}$")]);
      expect(r.code, r.stdout).toBe(0);
      expect(r.stdout).toMatch(/: no changes\n$/);
    });

    it("an undecidable pattern is level unknown with its reason in every format; --fail-on unknown (the default) fails on it, breaking does not", async () => {
      const spec = withPattern("hook-create-request.json", "name", "^([a-z0-9]+)-\\1$");
      const text = await runCliInProcess(["diff", "spec", spec]);
      expect(text.code, text.stdout).toBe(1);
      expect(text.stdout).toMatch(/: 0 breaking changes, 2 unknown, 0 safe\n/);
      expect(text.stdout).toMatch(/\nUNKNOWN, may break clients, servers: request body \(application\/json\): pattern changed from .*: compatibility unknown, head the pattern holds a backreference/);
      expect(text.stdout).toContain("  why unknown: head the pattern holds a backreference (its language is not regular)");
      expect((await runCliInProcess(["diff", "spec", spec, "--fail-on", "unknown"])).code).toBe(1);
      expect((await runCliInProcess(["diff", "spec", spec, "--fail-on", "breaking"])).code).toBe(0);
      const json = JSON.parse((await runCliInProcess(["diff", "spec", spec, "--format", "json"])).stdout) as { breaking: number; unknown: number; safe: number; changes: Record<string, unknown>[] };
      expect([json.breaking, json.unknown, json.safe]).toEqual([0, 2, 0]);
      for (const c of json.changes) expect(c).toMatchObject({ level: "unknown", breaking: false, for: [], mayBreak: ["clients", "servers"], reason: expect.stringMatching(/backreference/) });
      const md = await runCliInProcess(["diff", "spec", spec, "--format", "markdown"]);
      expect(md.stdout).toMatch(/^### Contract changes: 0 breaking changes, 2 unknown, 0 safe/);
      expect(md.stdout).toMatch(/\| \*\*unknown\*\* \| perhaps clients, servers \| request body/);
    });

    it("a pattern built to backtrack against a 41-character enum value in the head alone (issue 41): answered, not hung (the real binary)", { timeout: ceiling(6_000) }, async () => {
      // The old diff ran the contract's RegExp on the value: ×4 for every two characters, hours at 41.
      const spec = copySpec();
      editSchema(spec, "issue-event-base.json", (s) => (s.properties.event = { ...s.properties.event, enum: [...s.properties.event.enum, "a".repeat(40) + "!"], pattern: "^(a+)+$" }));
      const r = await runCli(["diff", "spec", spec, "--format", "json"]);
      expect(r.code, r.stderr).toBe(1);
      const out = JSON.parse(r.stdout) as { changes: { kind: string }[] };
      expect(new Set(out.changes.map((c) => c.kind))).toEqual(new Set(["response-enum-value-removed"]));
    });

    it("a pattern built to blow up an automaton: unknown past the stated bound, at once", { timeout: ceiling(6_000) }, async () => {
      const r = await runCliInProcess(["diff", "spec", withPattern("hook-create-request.json", "name", "^(?:a|b)*a(?:a|b){24}$"), "--format", "json"]);
      expect(r.code, r.stdout).toBe(1);
      const out = JSON.parse(r.stdout) as { changes: { level: string; reason?: string }[] };
      expect(out.changes.length).toBeGreaterThan(0);
      for (const c of out.changes) expect([c.level, c.reason]).toEqual(["unknown", "the pattern's automaton exceeds 10000 states, the bound of the comparison"]);
    });
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
    it("an unknown --for audience", async () => oneLine(await runCliInProcess(["diff", "spec", "spec", "--for", "clients,users"]), /--for takes a comma list of clients, servers, receivers, got "clients,users"/));
  });

  describe("what is not an OpenAPI 3.0 or 3.1 document: exit 2, one line naming the file and why (issue 35)", () => {
    const dir = mkdtempSync(join(tmpdir(), "diff-not-openapi-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, content: unknown) => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(content));
      return path;
    };
    it("a JSON Schema file (one of the contract's own)", async () => oneLine(await runCliInProcess(["diff", "spec/schemas/user.json", "spec"]), /^service-contract: spec\/schemas\/user.json is not an OpenAPI document: it has no "openapi" field \(it looks like a JSON Schema\)$/));
    it("a package.json-like object", async () => {
      const pkg = file("package.json", { name: "x", version: "1.0.0", dependencies: { yaml: "2.0.0" } });
      oneLine(await runCliInProcess(["diff", "spec", pkg]), /package.json is not an OpenAPI document: it has no "openapi" field \(it looks like a package manifest\)$/);
    });
    it("a Swagger 2.0 document", async () => {
      const swagger = file("swagger.json", { swagger: "2.0", info: { title: "t", version: "1" }, paths: {} });
      oneLine(await runCliInProcess(["diff", swagger, "spec"]), /swagger.json is a Swagger 2.0 document, not OpenAPI 3.0 or 3.1/);
    });
    it("openapi: 9.9.9", async () => {
      const future = file("future.json", { openapi: "9.9.9", info: { title: "t", version: "1" }, paths: {} });
      oneLine(await runCliInProcess(["diff", "spec", future]), /future.json declares OpenAPI "9.9.9"; diff reads OpenAPI 3.0.x and 3.1.x$/);
    });
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

    it("a revision whose spec/ has no root document is named as the revision, not a temporary folder (issue 35)", async () => {
      git("checkout", "-qb", "no-root");
      git("rm", "-q", "spec/openapi.yaml");
      git("commit", "-qm", "no root document");
      git("checkout", "-q", "feature");
      const r = await runCliInProcess(["diff", "--base-ref", "no-root", "spec"], { cwd: repo });
      oneLine(r, /^service-contract: no-root:spec is a folder without openapi.yaml, openapi.yml or openapi.json$/);
      expect(r.stderr).not.toMatch(/service-contract-diff-|\/tmp\//);
    });

    it("--for clients: a new operation breaks servers only, so it passes; the outputs say whom they judged for (issue 35)", async () => {
      git("checkout", "-q", "feature");
      editOpenApi(join(repo, "spec"), (d) => {
        delete d.webhooks.watch;
        d.paths["/new-thing"] = { get: { operationId: "getNewThing", responses: { "404": { description: "none" } } } };
      });
      // Against HEAD (which has no watch either): only the new operation, breaking servers.
      const all = await runCliInProcess(["diff", "--base-ref", "HEAD", "spec"], { cwd: repo });
      expect(all.code, all.stdout).toBe(1);
      expect(all.stdout).toMatch(/: 1 breaking change \(servers 1\), 0 unknown, 0 safe\n/);
      const clients = await runCliInProcess(["diff", "--base-ref", "HEAD", "spec", "--for", "clients"], { cwd: repo });
      expect(clients.code, clients.stdout).toBe(0);
      expect(clients.stdout).toMatch(/: 0 breaking changes for clients, 0 unknown, 1 safe \(1 breaking only servers, receivers\)\njudged for clients \(--for\)\n/);
      expect(clients.stdout).toContain("breaking for servers only (not asked for): operation GET /new-thing added");
      const json = JSON.parse((await runCliInProcess(["diff", "--base-ref", "HEAD", "spec", "--for", "clients,receivers", "--format", "json"], { cwd: repo })).stdout);
      expect(json).toMatchObject({ for: ["clients", "receivers"], breaking: 0, changes: [{ kind: "operation-added", breaking: true, level: "safe", for: ["servers"] }] });
      const md = await runCliInProcess(["diff", "--base-ref", "HEAD", "spec", "--for", "receivers,clients", "--format", "markdown"], { cwd: repo });
      expect(md.code).toBe(0);
      expect(md.stdout).toMatch(/^### Contract changes for clients, receivers: 0 breaking changes for clients, receivers/);
      expect(md.stdout).toContain("Judged for clients, receivers only (`--for`).");
      const servers = await runCliInProcess(["diff", "--base-ref", "HEAD", "spec", "--for", "servers"], { cwd: repo });
      expect(servers.code).toBe(1);
      git("checkout", "-q", "--", "spec");
    });

  });

  it("a revision whose tree leaves its folder (`..` entries) is refused, exit 2, and nothing is written outside (issue 34)", async () => {
    // A tree git's own checkout would refuse: spec/../../escaped.txt, made with mktree.
    const repo = mkdtempSync(join(tmpdir(), "diff-crafted-"));
    const git = (...args: string[]) => spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.test", ...args], { cwd: repo }).stdout.toString();
    git("init", "-q");
    mkdirSync(join(repo, "spec"));
    writeFileSync(join(repo, "spec", "openapi.yaml"), "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n");
    git("add", "spec");
    git("commit", "-qm", "a contract");
    const write = (text: string) => spawnSync("git", ["hash-object", "-w", "--stdin"], { cwd: repo, input: text }).stdout.toString().trim();
    const mktree = (lines: string) => spawnSync("git", ["mktree"], { cwd: repo, input: lines }).stdout.toString().trim();
    const escaped = write("written outside\n");
    const inner = mktree(`100644 blob ${escaped}\tescaped.txt\n`);
    const up1 = mktree(`040000 tree ${inner}\t..\n`);
    const root = git("rev-parse", "HEAD:spec/openapi.yaml").trim();
    const spec = mktree(`100644 blob ${root}\topenapi.yaml\n040000 tree ${up1}\t..\n`);
    const top = mktree(`040000 tree ${spec}\tspec\n`);
    expect(git("ls-tree", "-r", "--name-only", top)).toContain("spec/../../escaped.txt");
    const commit = git("commit-tree", top, "-m", "crafted").trim();
    git("update-ref", "refs/heads/crafted", commit);
    // The temporary folder is made under TMPDIR: `..` twice from its spec/ lands in TMPDIR itself.
    const tmp = mkdtempSync(join(tmpdir(), "diff-tmpdir-"));
    mkdirSync(join(tmp, "inner"));
    try {
      const r = await runCli(["diff", "--base-ref", "crafted", "spec"], { cwd: repo, env: { TMPDIR: join(tmp, "inner") } });
      oneLine(r, /^service-contract: --base-ref: crafted holds a file whose path leaves its folder \("spec\/..\/..\/escaped.txt"\); refused$/);
      expect(existsSync(join(tmp, "inner", "escaped.txt"))).toBe(false);
      expect(existsSync(join(tmp, "escaped.txt"))).toBe(false);
      // And no temporary folder is left behind.
      expect(readdirSync(join(tmp, "inner")).filter((n) => n.startsWith("service-contract-diff-"))).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
      rmSync(repo, { recursive: true, force: true });
    }
  });

  describe("this repository's own history since issue 24: breaking changes only where the meaning changed (issue 35)", () => {
    // Each revision of spec/ on the main line from issue 24's merge (c26e8e9) to dc6dbf8, against
    // the one before. Where the meaning changed, the reason; every other step must break nobody.
    const MEANING_CHANGED: Record<string, string> = {
      "01c012e": "responses made tolerant of what the real service sends (issue 24 point 4): fields optional, enums opened to any string — readers break",
      "8649766": "decisions added and reworded (the @octokit cross-check): the cases judging servers change",
      bd34af3: "feed payloads take the real service's short forms, delivery records untied (issue 24 point 4): readers break",
      a76fb3e: "D-SIGNATURE reworded: the delivery record's signature header",
      be4d0ee: "a decision reworded: chat's webhook_url is write-only",
      "3cd7954": "a decision added: D-URL-ORIGINS",
    };
    const git = (...args: string[]) => spawnSync("git", args, { cwd: SPEC }).stdout.toString().trim();
    const revisions = ["c26e8e9^", ...git("rev-list", "--first-parent", "--reverse", "--abbrev-commit", "c26e8e9^..dc6dbf8", "--", ".").split("\n")];

    it("has the history to read", () => {
      expect(revisions.length, "a clone with its history (not shallow) is needed").toBeGreaterThan(8);
      expect(revisions).toEqual(expect.arrayContaining(Object.keys(MEANING_CHANGED)));
    });

    // Each revision read once (it is the head of one step and the base of the next).
    const checkouts = new Map<string, ReturnType<typeof checkoutAt>>();
    const at = (rev: string) => {
      if (!checkouts.has(rev)) checkouts.set(rev, checkoutAt(rev, SPEC));
      return checkouts.get(rev)!.path;
    };
    afterAll(() => checkouts.forEach((c) => c.remove()));

    it.each(revisions.slice(1).map((rev, i) => [revisions[i]!, rev] as const))("%s → %s", async (from, to) => {
      const { changes } = await diffContracts(loadContract(at(from)), loadContract(at(to)));
      checkouts.get(from)?.remove();
      const breaking = changes.filter((c) => c.breaking || c.mayBreak);
      const key = Object.keys(MEANING_CHANGED).find((k) => to.startsWith(k));
      if (key === undefined) expect(breaking.map((c) => `${c.kind} [${c.for}] ${c.message}`)).toEqual([]);
      else expect(breaking.length, MEANING_CHANGED[key]).toBeGreaterThan(0);
      // An enum replaced by "any non-empty string" in a response widens it: clients, never servers.
      expect(changes.filter((c) => /^response-enum-removed$/.test(c.kind) && c.for.includes("servers"))).toEqual([]);
    });

    it("the components renamed for the generators (issue 35 point 1, merged as ad256b8) change nothing of the contract", async () => {
      const { changes } = await diffContracts(loadContract(at("408c4fb")), loadContract(at("ad256b8")));
      // OAuthTokenError → OauthTokenError, HookDeliveryDetail → HookDeliveryAttempt: the same schemas.
      expect(changes.filter((c) => !c.rule).map((c) => `${c.kind} ${c.message}`)).toEqual([]);
      // Only the rule table: a decision whose text names the renamed component is reworded, which
      // the rule table judges by text (whom its cases judge), not by meaning.
      expect(changes.filter((c) => c.breaking).map((c) => c.rule)).toEqual(["D-OAUTH-AUTHORIZE-ERRORS"]);
    });
  });
});
