/**
 * Keeps assignable.typecheck.ts (the literals the typecheck assigns to the generated types) in
 * step with the contract's examples, and checks that it covers what issue 36 asks: every activity
 * event type and the body of every operation's answer that has an example. Refresh with
 * `UPDATE_ASSIGNABLE=1 npx vitest run --project core test/generators/assignable.test.ts`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ASSIGNABLE_FILE, EXTRAS, assignableText, componentNames, responseLiterals, schemaLiterals } from "./assignable-literals.ts";
import { readSchemaFiles } from "../../generators/schema-files.ts";

const root = join(import.meta.dirname, "../..");

describe("plain literals of the contract's shape, assigned to the generated types", () => {
  it("assignable.typecheck.ts is what the examples give", () => {
    const text = assignableText();
    if (process.env.UPDATE_ASSIGNABLE) writeFileSync(ASSIGNABLE_FILE, text);
    expect(readFileSync(ASSIGNABLE_FILE, "utf8")).toBe(text);
  });

  it("lists in EXTRAS only examples that exist", () => {
    const names = new Set(schemaLiterals().map((l) => l.name));
    expect([...EXTRAS].filter((n) => !names.has(n))).toEqual([]);
  });

  it("covers every activity event type and the feed page", () => {
    const names = componentNames();
    const events = readSchemaFiles(join(root, "spec/schemas"))
      .filter((s) => s.name.startsWith("activity/"))
      .map((s) => `T.${names.get(s.name)}`);
    expect(events.length).toBeGreaterThan(20);
    const typed = new Set(schemaLiterals().map((l) => l.type));
    expect(events.filter((t) => !typed.has(t))).toEqual([]);
    expect(typed).toContain("T.ActivityEvent");
    expect(responseLiterals().some((l) => l.type.startsWith('operations["listRepoEvents"]["responses"][200]'))).toBe(true);
  });
});
