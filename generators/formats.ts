/**
 * Format overrides on top of ajv-formats' full mode.
 *
 * `uri`: ajv-formats' full check is the whole RFC 3986 grammar as one regular expression, and on
 * a typical push payload (about forty URLs) it was 60% of the validation time, making
 * validation slower than parsing the JSON. The contract only needs "an absolute URI": a scheme,
 * then no whitespace — the same pattern ajv-formats uses in its fast mode. A RegExp format is
 * also inlined into standalone code, so the precompiled validators need no import for it.
 * Recorded in spec/DECISIONS.md.
 */
import type { Ajv2020 } from "ajv/dist/2020.js";

export const URI_PATTERN = /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/)?[^\s]*$/i;

/**
 * `uri-reference` (a `Location`, RFC 9110 §10.2.2): ajv-formats' fast pattern — an optional
 * scheme and authority, then no whitespace — linear like the `uri` one, and as loose.
 */
export const URI_REFERENCE_PATTERN = /^(?:(?:[a-z][a-z0-9+\-.]*:)?\/?\/)?(?:[^\\\s#][^\s#]*)?(?:#[^\\\s]*)?$/i;

export function overrideFormats(ajv: Ajv2020): void {
  ajv.addFormat("uri", URI_PATTERN);
  ajv.addFormat("uri-reference", URI_REFERENCE_PATTERN);
}
