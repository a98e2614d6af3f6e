/**
 * Preloaded into the Spectral process by test/tools/spectral.test.ts (node --require): Ajv
 * compiles each distinct schema once. Spectral's example rules (oas3-valid-media-example,
 * oas3-valid-schema-example) deep-copy the schema before validating every example, so Ajv, which
 * caches by object, compiled the same schema again for each of the ~480 examples of each
 * document: three quarters of the run. Keyed by the schema's JSON on the same Ajv instance, the
 * validator is the one Ajv would compile again (it depends on nothing but the instance and the
 * schema), so Spectral checks exactly what it checked before.
 */
"use strict";
const { createRequire } = require("node:module");

const fromSpectral = createRequire(require.resolve("@stoplight/spectral-functions"));
const Ajv = fromSpectral("ajv/dist/core").default;
const compile = Ajv.prototype.compile;
const compiled = new WeakMap();

Ajv.prototype.compile = function compileOnce(schema, meta) {
  if (meta || schema === null || typeof schema !== "object") return compile.call(this, schema, meta);
  let byJson = compiled.get(this);
  if (!byJson) compiled.set(this, (byJson = new Map()));
  const key = JSON.stringify(schema);
  let validate = byJson.get(key);
  if (!validate) byJson.set(key, (validate = compile.call(this, schema, meta)));
  return validate;
};
