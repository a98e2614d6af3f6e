/**
 * Other projects import the validators as plain JavaScript: `service-contract/validators` must
 * load in bare Node (no TypeScript loader) through the package's `exports`, and validate. In a
 * clone the exports' `service-contract-source` condition points at generated/; the installed
 * package's compiled exports are checked by test/package/consumer.test.ts.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");

it("imports through the package export in plain Node and validates a push payload", () => {
  const script = `
    import { readFileSync } from "node:fs";
    import { validateWebhook } from "service-contract/validators";
    const good = JSON.parse(readFileSync("spec/examples/webhooks/push/valid-branch-push.json", "utf8"));
    const bad = { ...good, after: "not-a-sha" };
    console.log(JSON.stringify([validateWebhook("push", good).valid, validateWebhook("push", bad)]));`;
  const out = execFileSync(process.execPath, ["--conditions=service-contract-source", "--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  const [good, bad] = JSON.parse(out) as [boolean, { valid: boolean; errors: { path: string }[] }];
  expect(good).toBe(true);
  expect(bad.valid).toBe(false);
  expect(bad.errors.map((e) => e.path)).toContain("/after");
});
