/**
 * Loads the contract: swagger-parser validates the OpenAPI 3.1 document (resolving every
 * external $ref) and bundles it into one self-contained object. Problems come back as
 * SpecError with a code and JSON pointer each, never as a bare stack trace.
 */
import { existsSync, readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { resolve } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPIV3_1 } from "openapi-types";
import { shownFile, SpecError, toPointer, type Problem } from "./problems.ts";
import { guardContract } from "./contract-guard/guard.ts";

export type OpenApiDocument = OpenAPIV3_1.Document;

interface RefParserError {
  name?: string;
  message: string;
  path?: (string | number)[] | null;
  source?: string;
  /** MissingPointerError: where the broken `$ref` is, as `file#/pointer` or just `#/pointer`. */
  parentPath?: string;
}

function unescapeToken(token: string): string {
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    // a literal % in a key: keep the token as written
  }
  return decoded.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Whether `file` has, at `pointer`, a `$ref` whose fragment is `hash`. */
function refAt(file: string, pointer: string, hash: string | undefined): boolean {
  let node: unknown;
  try {
    node = parseYaml(readFileSync(file, "utf8"));
  } catch {
    return false;
  }
  const tokens = pointer === "#" ? [] : pointer.replace(/^#\//, "").split("/");
  for (const token of tokens) {
    if (node === null || typeof node !== "object") return false;
    node = (node as Record<string, unknown>)[unescapeToken(token)];
  }
  const ref = (node as { $ref?: unknown } | undefined)?.$ref;
  return typeof ref === "string" && (hash === undefined || ref.endsWith(hash));
}

function refProblem(e: RefParserError, rootFile: string): Problem {
  const missingPointer = e.name === "MissingPointerError" || /Missing \$ref pointer/.test(e.message);
  const syntax = e.name === "ParserError";
  const message = e.message.replace(/\s+/g, " ").trim();
  if (missingPointer && e.parentPath) {
    // For a missing pointer, `source` is the file the $ref points INTO, and `parentPath` is where
    // the $ref sits but names its file only sometimes; find the file that has the $ref there.
    const hash = e.parentPath.indexOf("#");
    const pointer = hash >= 0 ? e.parentPath.slice(hash) : toPointer(e.path ?? []);
    const named = hash > 0 ? [e.parentPath.slice(0, hash)] : [];
    const wanted = /"(#[^"]*)"/.exec(message)?.[1];
    const file = [...named, e.source, rootFile].find((f) => f !== undefined && refAt(f, pointer, wanted)) ?? named[0] ?? e.source;
    const target = e.source && file !== e.source ? ` (in ${shownFile(e.source)})` : "";
    return { code: "REF_MISSING", pointer, file: shownFile(file), message: message + target, severity: "error" };
  }
  if (syntax) return syntaxProblem(e);
  return {
    code: missingPointer ? "REF_MISSING" : "REF_UNRESOLVED",
    pointer: toPointer(e.path ?? []),
    file: shownFile(e.source),
    message,
    severity: "error",
  };
}

/**
 * A file that is not valid YAML/JSON. The parser's message is "Error parsing <file>: <reason>
 * (line:col)" followed by a code frame; report the broken file itself (the error's `source` is
 * the file that refers to it) with the reason and position, on one line.
 */
function syntaxProblem(e: RefParserError): Problem {
  const first = e.message.split("\n")[0]!.trim();
  const parsed = /^Error parsing (.+?): (.*)$/.exec(first);
  const file = parsed?.[1] ?? e.source;
  const from = e.source && file !== e.source && e.path?.length ? ` (referenced from ${shownFile(e.source)}${toPointer(e.path)})` : "";
  return { code: "SPEC_SYNTAX", pointer: "#", file: shownFile(file), message: (parsed?.[2] ?? first) + from, severity: "error" };
}

/** Validation messages from swagger-parser quote the failing location as `#/…`; keep it. */
function validationProblems(message: string, file: string): Problem[] {
  const lines = message.split("\n").map((l) => l.trim()).filter(Boolean);
  const detail = lines.length > 1 ? lines.slice(1) : lines;
  return detail.map((line) => ({
    code: "SPEC_INVALID" as const,
    pointer: /(#\/[^\s'"]*)/.exec(line)?.[1] ?? "#",
    file: shownFile(file),
    message: line,
    severity: "error" as const,
  }));
}

/** Validate (all refs resolved, OpenAPI 3.1 schema) and return the bundled document. */
export async function loadSpec(specPath: string): Promise<OpenApiDocument> {
  await validateSpec(specPath);
  return (await SwaggerParser.bundle(specPath)) as OpenApiDocument;
}

/**
 * Validate (all refs resolved, OpenAPI 3.1 schema), or SpecError. For callers that read the
 * files themselves (generate's model, the portable bundle) and would throw the bundle away; it
 * returns the root document as the contract guard parsed it (the `yaml` library's reading, the
 * one the model is built from), to spare them a second parse.
 */
export async function validateSpec(specPath: string): Promise<unknown> {
  if (!existsSync(specPath)) {
    throw new SpecError([
      { code: "SPEC_NOT_FOUND", pointer: "#", file: specPath, message: `no such file: ${specPath}`, severity: "error" },
    ]);
  }
  // Before swagger-parser, which follows a $ref anywhere (a URL, a file outside the folder) and
  // walks a YAML alias once per use: UnsafeContractError, one line, exit 2 (contract-guard/).
  const root = guardContract(specPath);
  try {
    // continueOnError collects every broken $ref in one pass instead of stopping at the first.
    await SwaggerParser.validate(specPath, { continueOnError: true } as never);
  } catch (error) {
    // With continueOnError, a root document that does not parse surfaces as a TypeError from
    // deep inside the validator; parsing it alone says so, as SPEC_SYNTAX. Only on this path: a
    // spec that validates parsed, and a second reading of 200 kB costs every run (issue 43).
    try {
      await SwaggerParser.parse(specPath);
    } catch (parseError) {
      const p = parseError as RefParserError;
      if (p.name === "ParserError") throw new SpecError([syntaxProblem(p)]);
      throw new SpecError(validationProblems(p.message, specPath));
    }
    const e = error as RefParserError & { errors?: RefParserError[] };
    if (Array.isArray(e.errors)) throw new SpecError(e.errors.map((x) => refProblem(x, resolve(specPath))));
    if (e.name && /Error$/.test(e.name) && e.name !== "SyntaxError" && "path" in e) throw new SpecError([refProblem(e, resolve(specPath))]);
    throw new SpecError(validationProblems(e.message, specPath));
  }
  return root;
}
