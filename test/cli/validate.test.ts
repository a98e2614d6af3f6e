/** `service-contract validate` over real files and standard input, with its exit-code contract. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli } from "./run-cli.ts";

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
    const result = await runCli(["validate", "--event", "push", goodPush, badPush]);
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

  it("reports not-JSON input as invalid (exit 1)", async () => {
    const result = await runCli(["validate", "--event", "push", "-"], { input: "{nope" });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/not valid JSON/);
  });

  it("prints machine-readable results with --json", async () => {
    const result = await runCli(["validate", "--event", "push", "--json", goodPush, badPush]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { valid: boolean; results: { file: string; valid: boolean; errors: { path: string }[] }[] };
    expect(report.valid).toBe(false);
    expect(report.results.map((r) => r.valid)).toEqual([true, false]);
    expect(report.results[1]!.errors).toContainEqual({ path: "/pusher", message: "is required" });
  });

  it.each([
    [["validate", "--event", "star", goodPush], /unknown event "star"/],
    [["validate", "--schema", "Nope", goodPush], /unknown schema "Nope"/],
    [["validate", goodPush], /exactly one of --event or --schema/],
    [["validate", "--event", "push", "--schema", "User", goodPush], /exactly one of --event or --schema/],
    [["validate", "--event", "push", "no/such/file.json"], /cannot read no\/such\/file\.json: ENOENT/],
  ])("exits 2 on usage errors: %j", async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
