/**
 * Ajv's standalone output in ESM mode still pulls its runtime helpers and formats with
 * `require(...)`, which does not exist in an ES module. Each distinct `require("x")` becomes one
 * default import of `x.js` (the CommonJS module object), placed at the top in a stable order.
 */
export function requireToImports(code: string): string {
  const modules: string[] = [];
  const body = code.replace(/require\("([^"]+)"\)/g, (_match, specifier: string) => {
    let index = modules.indexOf(specifier);
    if (index < 0) index = modules.push(specifier) - 1;
    return `__runtime${index}`;
  });
  const imports = modules.map((m, i) => `import __runtime${i} from ${JSON.stringify(m.endsWith(".js") ? m : `${m}.js`)};`);
  const withoutStrict = body.replace(/^"use strict";/, "");
  return [...imports, withoutStrict].join("\n");
}
