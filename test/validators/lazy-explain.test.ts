/**
 * The explaining validators (compiled-*-explain.js, compiled with `allErrors`, as big as the
 * verdict's) are loaded on the first failed value, not with the module: importing the validators
 * and validating values that pass never reads them (issue 43: the import's cost). Shown on a copy
 * of generated/validators without those two files, in plain Node: the import and a passing
 * validation work there, and a failing one is where the files are looked for.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const folder = mkdtempSync(join(tmpdir(), "lazy-explain-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

it("imports and passes a value without the explaining copies, and looks for them only on a failure", () => {
  cpSync(join(root, "generated/validators"), join(folder, "validators"), { recursive: true, filter: (path) => !/-explain\.js$/.test(path) });
  symlinkSync(join(root, "node_modules"), join(folder, "node_modules"), "dir");
  const script = `
    import { readFileSync } from "node:fs";
    import { validateWebhook } from ${JSON.stringify(join(folder, "validators/index.js"))};
    const good = JSON.parse(readFileSync("spec/examples/webhooks/push/valid-branch-push.json", "utf8"));
    const out = { good: validateWebhook("push", good).valid };
    try {
      validateWebhook("push", { ...good, after: "not-a-sha" });
      out.bad = "explained without the files";
    } catch (error) {
      out.bad = error.code;
    }
    console.log(JSON.stringify(out));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  expect(JSON.parse(out)).toEqual({ good: true, bad: "MODULE_NOT_FOUND" });
});

// The explaining modules are ES modules loaded with require(); under a transpiling loader (tsx,
// which runs the reference in a clone) a default import of ajv-formats is `exports.default` —
// undefined — and loading them threw on the first explained failure (a 500 from a server
// validating its answers). Both ways must explain a date-time failure the same way.
it.each([
  ["plain Node", []],
  ["Node with tsx's loader", ["--import", "tsx"]],
])("explains a failed value under %s", (_name, flags) => {
  const script = `
    import { validateSchema } from ${JSON.stringify(join(root, "generated/validators/index.js"))};
    const result = validateSchema("Authorization", { id: 1, created_at: "not a date" });
    console.log(JSON.stringify(result.errors.find((e) => e.path === "/created_at")));`;
  const out = execFileSync(process.execPath, [...flags, "--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  expect(JSON.parse(out)).toEqual({ path: "/created_at", message: expect.stringMatching(/date-time/) });
});
