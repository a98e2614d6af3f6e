/**
 * Whether a value is accepted by a schema's own keywords (type, bounds, pattern, format, …;
 * not its subschemas, which the comparison walks itself). Used where one side of a comparison
 * is a finite set of values (`enum`, `const`): then inclusion is decidable whatever keywords the
 * other side uses — `enum: [open, closed]` against `pattern: ^[a-z]+$` is a widening, because
 * both values match — so the comparison asks Ajv (the contract's validator) value by value
 * instead of comparing keywords.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { overrideFormats } from "../generators/formats.ts";
import type { Json, JsonObject } from "./documents.ts";

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
  const own = Object.fromEntries(VALUE_KEYWORDS.filter((k) => schema[k] !== undefined).map((k) => [k, schema[k]]));
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
      // A keyword Ajv cannot compile (an invalid pattern): the caller treats the value as undecided.
      v = null;
    }
    if (compiled.size > 5000) compiled.clear();
    compiled.set(key, v);
  }
  return v;
}

/** true / false, or undefined when the schema's keywords cannot be compiled. */
export function accepts(schema: JsonObject, value: Json): boolean | undefined {
  const v = validator(schema);
  return v === null ? undefined : Boolean(v(value));
}
