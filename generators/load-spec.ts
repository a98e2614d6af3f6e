/**
 * Loads the contract: swagger-parser validates the OpenAPI 3.1 document (resolving every
 * external $ref) and bundles it into one self-contained object. Problems come back as
 * SpecError with a code and JSON pointer each, never as a bare stack trace.
 */
import { existsSync } from "node:fs";
import { relative } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPIV3_1 } from "openapi-types";
import { SpecError, toPointer, type Problem } from "./problems.ts";

export type OpenApiDocument = OpenAPIV3_1.Document;

interface RefParserError {
  name?: string;
  message: string;
  path?: (string | number)[] | null;
  source?: string;
}

function rel(file: string | undefined): string | undefined {
  return file ? relative(process.cwd(), file) || file : undefined;
}

function refProblem(e: RefParserError): Problem {
  const missingPointer = e.name === "MissingPointerError" || /Missing \$ref pointer/.test(e.message);
  const syntax = e.name === "ParserError";
  return {
    code: syntax ? "SPEC_SYNTAX" : missingPointer ? "REF_MISSING" : "REF_UNRESOLVED",
    pointer: toPointer(e.path ?? []),
    file: rel(e.source),
    message: e.message.replace(/\s+/g, " ").trim(),
    severity: "error",
  };
}

/** Validation messages from swagger-parser quote the failing location as `#/…`; keep it. */
function validationProblems(message: string, file: string): Problem[] {
  const lines = message.split("\n").map((l) => l.trim()).filter(Boolean);
  const detail = lines.length > 1 ? lines.slice(1) : lines;
  return detail.map((line) => ({
    code: "SPEC_INVALID" as const,
    pointer: /(#\/[^\s'"]*)/.exec(line)?.[1] ?? "#",
    file: rel(file),
    message: line,
    severity: "error" as const,
  }));
}

/** Validate (all refs resolved, OpenAPI 3.1 schema) and return the bundled document. */
export async function loadSpec(specPath: string): Promise<OpenApiDocument> {
  if (!existsSync(specPath)) {
    throw new SpecError([
      { code: "SPEC_NOT_FOUND", pointer: "#", file: specPath, message: `no such file: ${specPath}`, severity: "error" },
    ]);
  }
  try {
    // continueOnError collects every broken $ref in one pass instead of stopping at the first.
    await SwaggerParser.validate(specPath, { continueOnError: true } as never);
  } catch (error) {
    const e = error as RefParserError & { errors?: RefParserError[] };
    if (Array.isArray(e.errors)) throw new SpecError(e.errors.map(refProblem));
    if (e.name && /Error$/.test(e.name) && e.name !== "SyntaxError" && "path" in e) throw new SpecError([refProblem(e)]);
    throw new SpecError(validationProblems(e.message, specPath));
  }
  return (await SwaggerParser.bundle(specPath)) as OpenApiDocument;
}
