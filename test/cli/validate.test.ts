/**
 * `service-contract validate` over real files and standard input, with its exit-code contract.
 * The real binary runs for each exit code, flag and standard-input case (a child costs ~0.7 s of
 * CPU to start); the cases that repeat one of those code paths with other files call the CLI's
 * `main` in this process (runCliInProcess: the same exit code and output).
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli, runCliInProcess } from "./run-cli.ts";

const push = "spec/examples/webhooks/push";
const goodPush = `${push}/valid-branch-push.json`;
const badPush = `${push}/invalid-missing-pusher.json`;

describe("service-contract validate", () => {
  it("exits 0 and prints ok for a valid push payload", async () => {
    const result = await runCli(["validate", "--event", "push", goodPush]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`ok      ${goodPush}\n`);
  });

  it("exits 1 with a line per file naming the failing pointer", async () => {
    const result = await runCliInProcess(["validate", "--event", "push", goodPush, badPush]);
    expect(result.code).toBe(1);
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^invalid .*invalid-missing-pusher\.json: \/pusher is required/);
  });

  it("reads standard input with -", async () => {
    const result = await runCli(["validate", "--schema", "PushWebhookPayload", "-"], { input: readFileSync(join(repoRoot, goodPush), "utf8") });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("ok      -\n");
  });

  it("decodes a form-encoded delivery body (content_type form)", async () => {
    const form = "payload=" + encodeURIComponent(readFileSync(join(repoRoot, goodPush), "utf8"));
    const result = await runCli(["validate", "--event", "push", "-"], { input: form });
    expect(result.code).toBe(0);
  });

  it("checks every valid example of the push event in one run (the issue's done-when command)", async () => {
    const files = readdirSync(join(repoRoot, push)).filter((f) => f.startsWith("valid-")).sort().map((f) => `${push}/${f}`);
    expect(files.length).toBeGreaterThan(1);
    const result = await runCliInProcess(["validate", "--event", "push", ...files]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(files.map((f) => `ok      ${f}\n`).join(""));
  });

  it("reports files that are not JSON, or empty, as invalid on one line each (exit 1), without a stack trace", async () => {
    const dir = mkdtempSync(join(tmpdir(), "validate-"));
    writeFileSync(join(dir, "not-json.json"), "not json\nat all\n");
    writeFileSync(join(dir, "empty.json"), "");
    writeFileSync(join(dir, "blank.json"), " \n");
    const result = await runCliInProcess(["validate", "--event", "push", "not-json.json", "empty.json", "blank.json"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    expect(result.stdout.split("\n").filter(Boolean)).toEqual([
      expect.stringMatching(/^invalid not-json\.json: not valid JSON: Unexpected token .* is not valid JSON$/),
      "invalid empty.json: empty input, expected a JSON value",
      "invalid blank.json: empty input, expected a JSON value",
    ]);
  });

  it("accepts a file saved with a byte-order mark", async () => {
    const result = await runCli(["validate", "--event", "push", "-"], { input: "\uFEFF" + readFileSync(join(repoRoot, goodPush), "utf8") });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("ok      -\n");
  });

  it("reports not-JSON standard input as invalid (exit 1)", async () => {
    const result = await runCli(["validate", "--event", "push", "-"], { input: "{nope" });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^invalid -: not valid JSON/);
  });

  it("still checks the readable files when one cannot be read, then exits 2", async () => {
    const result = await runCli(["validate", "--event", "push", "no/such/file.json", goodPush, "spec"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe(`ok      ${goodPush}\n`);
    expect(result.stderr).toBe("error   no/such/file.json: cannot read: no such file\nerror   spec: cannot read: is a directory\n");
  });

  it("prints machine-readable results with --json", async () => {
    const result = await runCli(["validate", "--event", "push", "--json", goodPush, badPush]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { valid: boolean; results: { file: string; valid: boolean; errors: { path: string }[] }[] };
    expect(report.valid).toBe(false);
    expect(report.results.map((r) => r.valid)).toEqual([true, false]);
    expect(report.results[1]!.errors).toContainEqual({ path: "/pusher", message: "is required" });
  });

  // The first case through the binary, the others (the same code path) in this process.
  it.each([
    [["validate", "--event", "star", goodPush], /unknown event "star"/, runCli],
    [["validate", "--schema", "Nope", goodPush], /unknown schema "Nope"/, runCliInProcess],
    [["validate", goodPush], /exactly one of --event or --schema/, runCliInProcess],
    [["validate", "--event", "push", "--schema", "User", goodPush], /exactly one of --event or --schema/, runCliInProcess],
    [["validate", "--event", "push", "no/such/file.json"], /^error   no\/such\/file\.json: cannot read: no such file\n$/, runCliInProcess],
  ])("exits 2 on usage errors: %j", async (args, message, run) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
