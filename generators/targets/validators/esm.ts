/**
 * Ajv's standalone output in ESM mode still pulls its runtime helpers and formats with
 * `require(...)`, which does not exist in an ES module. Each distinct `require("x")` becomes one
 * default import of `x.js`, placed at the top in a stable order.
 *
 * A default import of a CommonJS module is `module.exports` under Node, but transpiling loaders
 * (vitest, bundlers) hand over `exports.default` instead when the module sets `__esModule`.
 * Ajv's runtime helpers (`ucs2length`, `equal`) are such modules and export one function as
 * `default`, so `require("x").default` is read through `__cjsDefault`, which accepts both.
 */
const CJS_DEFAULT_HELPER =
  "const __cjsDefault = (m) => (typeof m === \"function\" ? m : m.default);";

export function requireToImports(code: string): string {
  const modules: string[] = [];
  const indexOf = (specifier: string): number => {
    const index = modules.indexOf(specifier);
    return index >= 0 ? index : modules.push(specifier) - 1;
  };
  let usesDefault = false;
  const body = code
    .replace(/require\("([^"]+)"\)\.default\b/g, (_match, specifier: string) => {
      usesDefault = true;
      return `__cjsDefault(__runtime${indexOf(specifier)})`;
    })
    .replace(/require\("([^"]+)"\)/g, (_match, specifier: string) => `__runtime${indexOf(specifier)}`);
  const imports = modules.map((m, i) => `import __runtime${i} from ${JSON.stringify(m.endsWith(".js") ? m : `${m}.js`)};`);
  const withoutStrict = body.replace(/^"use strict";/, "");
  return [...imports, ...(usesDefault ? [CJS_DEFAULT_HELPER] : []), withoutStrict].join("\n");
}
