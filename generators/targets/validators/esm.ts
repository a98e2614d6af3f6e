/**
 * Ajv's standalone output in ESM mode still pulls its runtime helpers and formats with
 * `require(...)`, which does not exist in an ES module. Each distinct `require("x")` becomes one
 * default import of `x.js`, placed at the top in a stable order.
 *
 * A default import of a CommonJS module is `module.exports` under Node, but transpiling loaders
 * (vitest, bundlers) hand over `exports.default` instead when the module sets `__esModule`.
 * Ajv's runtime helpers (`ucs2length`, `equal`) are such modules and export one function as
 * `default`, so `require("x").default` is read through `__cjsDefault`, which accepts both.
 * A plain `require("x")` (ajv-formats' `fullFormats`) becomes a namespace import instead: a
 * default import there is `exports.default` under such a loader — undefined — which made the
 * first explained failure throw under tsx (its `require()` of the explaining ES module).
 */
const CJS_DEFAULT_HELPER =
  "const __cjsDefault = (m) => (typeof m === \"function\" ? m : m.default);";

export function requireToImports(code: string): string {
  const modules: string[] = [];
  const indexOf = (specifier: string): number => {
    const index = modules.indexOf(specifier);
    return index >= 0 ? index : modules.push(specifier) - 1;
  };
  const whole = new Set<number>();
  const defaults = new Set<number>();
  const body = code
    .replace(/require\("([^"]+)"\)\.default\b/g, (_match, specifier: string) => {
      const index = indexOf(specifier);
      defaults.add(index);
      return `__cjsDefault(__runtime${index})`;
    })
    .replace(/require\("([^"]+)"\)/g, (_match, specifier: string) => {
      const index = indexOf(specifier);
      whole.add(index);
      return `__runtime${index}`;
    });
  // One import per module: a module read both ways would need both kinds, which Ajv never emits.
  for (const index of whole) {
    if (defaults.has(index)) throw new Error(`Ajv's output reads ${modules[index]} both whole and as its default`);
  }
  const usesDefault = defaults.size > 0;
  const imports = modules.map((m, i) => {
    const from = JSON.stringify(m.endsWith(".js") ? m : `${m}.js`);
    return whole.has(i) ? `import * as __runtime${i} from ${from};` : `import __runtime${i} from ${from};`;
  });
  const withoutStrict = body.replace(/^"use strict";/, "");
  return [...imports, ...(usesDefault ? [CJS_DEFAULT_HELPER] : []), withoutStrict].join("\n");
}
