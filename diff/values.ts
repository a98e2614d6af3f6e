/**
 * Whether a value is accepted by a schema's own keywords (type, bounds, pattern, format, …;
 * not its subschemas, which the comparison walks itself). Used where one side of a comparison
 * is a finite set of values (`enum`, `const`): then inclusion is decidable whatever keywords the
 * other side uses — `enum: [open, closed]` against `pattern: ^[a-z]+$` is a widening, because
 * both values match — so the comparison asks Ajv (the contract's validator) value by value
 * instead of comparing keywords.
 *
 * A `pattern` is never handed to Ajv: Ajv would run it as a backtracking RegExp, and a pattern
 * from a stranger's contract (`^(a+)+$` against a 41-character value) runs for minutes. It is
 * decided on its automaton instead (patterns.ts: linear in the value, bounded in the pattern),
 * and a pattern that cannot be turned into one leaves the value undecided, with the reason.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { overrideFormats } from "../generators/formats.ts";
import type { Json, JsonObject } from "./documents.ts";
import { language, matches } from "./patterns.ts";

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The keywords that constrain a value without a subschema. */
export const VALUE_KEYWORDS = [
  "type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "minLength", "maxLength", "pattern", "format", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
];

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction | null>();

function validator(schema: JsonObject): ValidateFunction | null {
  const own = Object.fromEntries(VALUE_KEYWORDS.filter((k) => schema[k] !== undefined && k !== "pattern").map((k) => [k, schema[k]]));
  const key = JSON.stringify(own);
  let v = compiled.get(key);
  if (v === undefined) {
    if (!ajv) {
      ajv = new Ajv2020({ strict: false, allowUnionTypes: true, allErrors: false, validateFormats: true });
      addFormats(ajv);
      overrideFormats(ajv);
    }
    try {
      v = ajv.compile(own);
    } catch {
      // A keyword Ajv cannot compile: the caller treats the value as undecided.
      v = null;
    }
    if (compiled.size > 5000) compiled.clear();
    compiled.set(key, v);
  }
  return v;
}

/** true / false, or why it cannot be decided (keywords Ajv cannot compile, a pattern with no automaton). */
export function accepts(schema: JsonObject, value: Json): boolean | string {
  const v = validator(schema);
  if (v === null) return "its keywords cannot be compiled";
  if (!v(value)) return false;
  // `pattern` applies to strings only; an invalid one has no automaton and leaves the value undecided.
  if (typeof schema.pattern !== "string" || typeof value !== "string") return true;
  const ok = matches(schema.pattern, value);
  if (ok !== undefined) return ok;
  const lang = language(schema.pattern);
  return "unknown" in lang ? lang.unknown : "undecided";
}
