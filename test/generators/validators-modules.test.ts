/**
 * The schema objects Ajv keeps in a compiled function's scope are written with only the parts
 * the code reads (generators/targets/validators/modules.ts, schemaConstant): what is left out
 * must be what no code can reach, and anything else keeps the object whole.
 */
import { describe, expect, it } from "vitest";
import { schemaConstant } from "../../generators/targets/validators/modules.ts";

const schema = JSON.stringify({
  description: "long prose",
  type: "object",
  properties: { action: { enum: ["a", "b"], description: "more prose" }, "x-otp": { enum: ["c"] }, list: { prefixItems: [{ type: "string" }, { type: "integer" }] } },
});

describe("schemaConstant", () => {
  it("leaves out a schema object the code never names (or names only inside a string or after a dot)", () => {
    expect(schemaConstant("schema7", schema, 'if(x){return "schema7"} y.schema7; schema70.type')).toBeNull();
  });

  it("keeps the paths the code reads, through dots, quoted keys and indexes, and nothing else", () => {
    const code = "{allowedValues: schema7.properties.action.enum} {allowedValues: schema7.properties[\"x-otp\"].enum} {type: schema7.properties.list.prefixItems[1].type}";
    const kept = schemaConstant("schema7", schema, code)!;
    expect(kept.startsWith("const schema7 = ")).toBe(true);
    const value = JSON.parse(kept.slice("const schema7 = ".length, -1)) as { properties: Record<string, { enum?: string[]; prefixItems?: unknown[] }> };
    expect(value.properties.action).toEqual({ enum: ["a", "b"] });
    expect(value.properties["x-otp"]).toEqual({ enum: ["c"] });
    expect(value.properties.list!.prefixItems![1]).toEqual({ type: "integer" });
    expect(kept).not.toContain("prose");
    // What the code reads is the same in both.
    const read = new Function(`${kept} return [schema7.properties.action.enum, schema7.properties["x-otp"].enum, schema7.properties.list.prefixItems[1].type];`)();
    const whole = new Function(`const schema7 = ${schema}; return [schema7.properties.action.enum, schema7.properties["x-otp"].enum, schema7.properties.list.prefixItems[1].type];`)();
    expect(read).toEqual(whole);
  });

  it("keeps the object whole when the code uses it other than through accessors, or reads a path it lacks", () => {
    expect(schemaConstant("schema7", schema, "f(schema7)")).toBe(`const schema7 = ${schema};`);
    expect(schemaConstant("schema7", schema, "schema7.properties.nope.enum")).toBe(`const schema7 = ${schema};`);
  });
});
