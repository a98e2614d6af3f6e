/**
 * Importing the validators loads none of the compiled functions (issue 43: the import's cost);
 * the first validation of a webhook loads exactly its function and the functions it calls,
 * following the requires of the generated modules, and nothing for other schemas. Shown in plain
 * Node, from the loader's own record of what it read (require.cache).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const folder = join(root, "generated/validators");

/** A compiled function's module and, transitively, every module it requires, as file paths. */
function closure(family: string, fn: string): string[] {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    const file = join(folder, `compiled-${family}`, `${name}.cjs`);
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, callee] of readFileSync(file, "utf8").matchAll(/require\("\.\/(validate\d+)\.cjs"\)/g)) visit(callee!);
  };
  visit(fn);
  return [...seen].sort();
}

function functionOf(exportName: string): string {
  const tables = readFileSync(join(folder, "tables.js"), "utf8");
  return new RegExp(`${exportName}: unit\\("bodies", "${exportName}", "(validate\\d+)"\\)`).exec(tables)![1]!;
}

it("loads no compiled function at import, and on a first validation only those it runs", () => {
  const script = `
    import { createRequire } from "node:module";
    import { readFileSync } from "node:fs";
    const cache = createRequire(import.meta.url).cache;
    const loaded = () => Object.keys(cache).filter((f) => f.includes("/generated/validators/") || f.includes("/ajv-formats/")).sort();
    const v = await import(${JSON.stringify(join(folder, "index.js"))});
    const atImport = loaded();
    const push = JSON.parse(readFileSync("spec/examples/webhooks/push/valid-branch-push.json", "utf8"));
    const valid = v.validateWebhook("push", push).valid;
    const afterPush = loaded();
    const again = v.validateWebhook("push", push).valid && loaded().length === afterPush.length;
    console.log(JSON.stringify({ atImport, valid, again, afterPush }));`;
  const out = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" })) as {
    atImport: string[];
    valid: boolean;
    again: boolean;
    afterPush: string[];
  };
  expect(out.atImport).toEqual([]);
  expect(out.valid).toBe(true);
  expect(out.again).toBe(true);
  const push = closure("bodies", functionOf("schema_PushWebhookPayload"));
  expect(push.length).toBeGreaterThan(1); // the payload's function calls those of shared schemas
  const compiled = out.afterPush.filter((f) => f.endsWith(".cjs"));
  expect(compiled).toEqual(push);
  // Nothing of another event's payload that push does not use.
  expect(compiled).not.toContain(join(folder, "compiled-bodies", `${functionOf("schema_IssuesWebhookPayload")}.cjs`));
  // ajv-formats only if one of push's functions checks a date-time.
  const formats = push.some((f) => readFileSync(f, "utf8").includes('require("ajv-formats/dist/formats")'));
  expect(out.afterPush.some((f) => f.includes("/ajv-formats/"))).toBe(formats);
});
