/**
 * Ajv's compiled functions, one small CommonJS module each, so that a program parses only the
 * validators it calls (issue 43).
 *
 * Ajv's `standalone` writes every function of an instance into one module: importing the
 * validators parsed all of them (850 KB for the verdict's bodies alone, most of the import time)
 * whatever the program went on to validate. Here each function Ajv compiled (one per schema file,
 * one per operation's body or parameter set) is its own module: the code Ajv generated for it,
 * as standalone prints it, the values of its scope, and a `require` of each other compiled
 * function it calls. The same code as the single module, cut at function boundaries.
 *
 * CommonJS, not ES modules: index.js loads them with a synchronous `require` on first use, and
 * Node loads a small CommonJS file several times faster than an ES module (all 166 of the
 * contract's: about 105 ms of CPU against 215 ms as ES modules, measured for issue 43). A module
 * exports its function before it requires anything, so in the cycles of recursive schemas the
 * module required second finds the first one's function already there.
 *
 * Two differences from standalone's output, both about values no code reads: a schema object
 * Ajv keeps in scope (the whole schema file, descriptions included) is written with only the
 * parts the code reads (schemaConstant), and each module requires only the runtime it uses, so
 * ajv-formats (the `date-time` check) is loaded with the first function that checks a date.
 */
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { AnyValidateFunction, SourceCode } from "ajv/dist/types/index.js";

type ValueScopeName = SourceCode["validateName"];

export interface CompiledModule {
  /** The function's name, also its module's file name (`validate52` → `validate52.cjs`). */
  name: string;
  code: string;
}

/**
 * Names Ajv gives to the values of a function's scope, as code uses them (not inside a string or
 * after a dot). One a module uses but does not define would fail only when that line runs, so
 * generation checks every module for them.
 */
const SCOPE_NAME = /(?<![\w$."'/#-])(?:validate|wrapper|root|schema|pattern|formats|func)\d+\b/g;

function sourceOf(validate: unknown, what: string): SourceCode {
  const source = (validate as AnyValidateFunction | undefined)?.source;
  if (!source) throw new Error(`validators: no compiled source for ${what}`);
  return source;
}

// A schema constant's uses: its name (not its declaration) and the accessors after it
// (`.properties.action.enum`, `["x-a"]`, `[0]`). One scan finds every constant's, so the work is
// linear in the code whatever the number of constants (a stranger's contract may have many).
const SCHEMA_USE = /(?<![\w$."'/#-])(schema\d+)(?![\w$]| = )((?:\.[A-Za-z_$][\w$]*|\["(?:[^"\\]|\\.)*"\]|\[\d+\])*)/g;

/** Every `schemaN` that `code` uses, with its accessor chains; `skip` leaves out matches at those offsets. */
function schemaUses(code: string, skip?: (name: string, at: number) => boolean): Map<string, string[]> {
  const uses = new Map<string, string[]>();
  for (const match of code.matchAll(SCHEMA_USE)) {
    const name = match[1]!;
    if (skip?.(name, match.index)) continue;
    const list = uses.get(name);
    if (list) list.push(match[2]!);
    else uses.set(name, [match[2]!]);
  }
  return uses;
}

function accessorKeys(chain: string): (string | number)[] {
  return [...chain.matchAll(/\.([A-Za-z_$][\w$]*)|\[("(?:[^"\\]|\\.)*")\]|\[(\d+)\]/g)].map((m) => (m[1] ?? (m[2] ? (JSON.parse(m[2]) as string) : Number(m[3]))));
}

/**
 * The declaration of a schema object Ajv keeps in scope, for code that uses it: null when the
 * code never names it (most: Ajv keeps every schema file's object, read only by error
 * parameters), else the object with only the paths the code reads (`{type: schema28.type}` in an
 * error's params) — the descriptions of a whole schema file otherwise. Any other use (the object
 * itself, not through accessors), or a value that is not JSON, keeps it whole.
 */
export function schemaConstant(name: string, valueCode: string, code: string): string | null {
  return constantFromUses(name, valueCode, schemaUses(code).get(name) ?? []);
}

function constantFromUses(name: string, valueCode: string, uses: readonly string[]): string | null {
  if (uses.length === 0) return null;
  const whole = `const ${name} = ${valueCode};`;
  if (uses.some((chain) => chain === "")) return whole;
  let schema: unknown;
  try {
    schema = JSON.parse(valueCode);
  } catch {
    return whole;
  }
  type Node = Record<string | number, unknown>;
  const kept: Node = Array.isArray(schema) ? ([] as unknown as Node) : {};
  for (const keys of uses.map(accessorKeys)) {
    let from = schema as Node;
    let to = kept;
    for (const [i, key] of keys.entries()) {
      const value = from?.[key];
      if (value === undefined) return whole;
      if (i === keys.length - 1) to[key] = value;
      else {
        to[key] ??= Array.isArray(value) ? [] : {};
        to = to[key] as Node;
        from = value as Node;
      }
    }
  }
  return `const ${name} = ${JSON.stringify(kept)};`;
}

/**
 * Standalone's single module with its schema objects cut down as schemaConstant says: the
 * declarations are found by their exact text, from the scope of every function compiled for `ids`.
 * Linear in the module's size: one scan finds every constant's uses (those inside its own
 * declaration left out), and the module is rebuilt once. (Searching the whole module again for
 * each constant cost 1.8 s of `generate`, issue 43.)
 */
export function trimSchemaConstants(ajv: Ajv2020, ids: readonly string[], text: string): string {
  const seen = new Set<string>();
  const pending = ids.map((id) => sourceOf(ajv.getSchema(id), id));
  const declarations = new Map<string, { valueCode: string; at: number; end: number }>();
  while (pending.length > 0) {
    const source = pending.pop()!;
    if (seen.has(String(source.validateName))) continue;
    seen.add(String(source.validateName));
    for (const [prefix, values] of Object.entries(source.scopeValues)) {
      for (const scopeName of (values ?? []) as Set<ValueScopeName>) {
        const ref = scopeName.value?.ref as { validate?: unknown } | undefined;
        if (prefix === "validate") pending.push(sourceOf(ref, "a referenced schema"));
        else if (prefix === "root" || prefix === "wrapper") pending.push(sourceOf(ref?.validate, "a referenced schema"));
        else if (prefix === "schema" && scopeName.value?.code && !declarations.has(String(scopeName))) {
          const valueCode = String(scopeName.value.code);
          const declaration = `const ${String(scopeName)} = ${valueCode};`;
          const at = text.indexOf(declaration);
          if (at >= 0) declarations.set(String(scopeName), { valueCode, at, end: at + declaration.length });
        }
      }
    }
  }
  // Uses inside a constant's own declaration are not uses of it.
  const uses = schemaUses(text, (name, at) => {
    const own = declarations.get(name);
    return own === undefined || (at >= own.at && at < own.end);
  });
  const spans = [...declarations].sort((a, b) => a[1].at - b[1].at);
  const parts: string[] = [];
  let from = 0;
  for (const [name, { valueCode, at, end }] of spans) {
    parts.push(text.slice(from, at), constantFromUses(name, valueCode, uses.get(name) ?? []) ?? "");
    from = end;
  }
  parts.push(text.slice(from));
  return parts.join("");
}

/**
 * Every function compiled for `ids` and every function they call, one module each, sorted by
 * name; and for each id the name of its function.
 */
export function compiledModules(ajv: Ajv2020, ids: readonly string[]): { modules: CompiledModule[]; functionOf: Map<string, string> } {
  const functionOf = new Map<string, string>();
  const modules = new Map<string, CompiledModule>();
  const pending: SourceCode[] = [];
  for (const id of ids) {
    const source = sourceOf(ajv.getSchema(id), id);
    functionOf.set(id, String(source.validateName));
    pending.push(source);
  }
  while (pending.length > 0) {
    const source = pending.pop()!;
    const name = String(source.validateName);
    if (modules.has(name)) continue;
    const { code, calls } = moduleCode(source);
    modules.set(name, { name, code });
    pending.push(...calls);
  }
  const byName = [...modules.values()].sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
  return { modules: byName, functionOf };
}

function moduleCode(source: SourceCode): { code: string; calls: SourceCode[] } {
  const self = String(source.validateName);
  const body = source.validateCode + (source.evaluated ? `\n${self}.evaluated = ${String(source.evaluated)};` : "");
  const required: string[] = [];
  const constants: string[] = [];
  const calls: SourceCode[] = [];
  const defined = new Set([self]);
  let bodyUses: Map<string, string[]> | undefined;
  const call = (target: unknown): string => {
    const callee = sourceOf(target, `a schema ${self} refers to`);
    const name = String(callee.validateName);
    if (!defined.has(name)) {
      defined.add(name);
      required.push(`const { ${name} } = require("./${name}.cjs");`);
      calls.push(callee);
    }
    return name;
  };
  for (const [prefix, values] of Object.entries(source.scopeValues)) {
    for (const scopeName of (values ?? []) as Set<ValueScopeName>) {
      const name = String(scopeName);
      const ref = scopeName.value?.ref as { validate?: unknown } | undefined;
      if (prefix === "validate") call(ref);
      else if (prefix === "root" || prefix === "wrapper") constants.push(`const ${name} = {validate: ${call(ref?.validate)}};`);
      else if (!scopeName.value?.code) throw new Error(`validators: ${self}'s scope value ${name} has no code`);
      else {
        const declaration = prefix === "schema" ? constantFromUses(name, String(scopeName.value.code), (bodyUses ??= schemaUses(body)).get(name) ?? []) : `const ${name} = ${String(scopeName.value.code)};`;
        if (declaration === null) continue;
        constants.push(declaration);
      }
      defined.add(name);
    }
  }
  const code = [`"use strict";`, `exports.${self} = ${self};`, ...required, ...constants, body].join("\n");
  for (const used of code.match(SCOPE_NAME) ?? []) {
    if (!defined.has(used)) throw new Error(`validators: ${self} uses ${used}, which its module does not define`);
  }
  return { code, calls };
}
