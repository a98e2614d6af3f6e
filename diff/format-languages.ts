/**
 * The `format`s whose check is one regular expression, as the contract's validators run them
 * (ajv-formats' full mode, with this project's `uri` override: generators/formats.ts). Such a
 * format is a regular language, so where it meets a `pattern` (a format replaced by a pattern,
 * or the reverse, or a pattern beside an unchanged format) the strings each side accepts are
 * compared exactly on automata (patterns.ts). Formats checked by code (`date-time`: calendar
 * rules; `regex`, `byte`) have no such expression: there a format and a pattern are compared
 * keyword by keyword, as before.
 */
import formatsModule from "ajv-formats/dist/formats.js";
import { URI_PATTERN } from "../generators/formats.ts";
import type { Regex } from "./patterns.ts";

// ajv-formats is CommonJS; under NodeNext its named exports arrive on the default one.
const { fullFormats } = formatsModule as unknown as { fullFormats: Record<string, unknown> };

/** The format's expression, or undefined when code checks it (or the name is unknown). */
export function formatRegex(name: string): Regex | undefined {
  if (name === "uri") return { source: URI_PATTERN.source, flags: URI_PATTERN.flags };
  if (!Object.hasOwn(fullFormats, name)) return undefined;
  const format = fullFormats[name];
  const regex = format instanceof RegExp ? format : typeof format === "object" && format !== null && (format as { validate?: unknown }).validate instanceof RegExp ? ((format as { validate: RegExp }).validate) : undefined;
  return regex ? { source: regex.source, flags: regex.flags } : undefined;
}
