/**
 * The catalog of problems the toolkit reports about a spec. Every message names a code from
 * this table and a JSON pointer into the document (`#/paths/~1events/get`), so a pipeline log
 * line is enough to find the fault without re-running anything locally.
 */
import { relative } from "node:path";

export const PROBLEM_CODES = {
  SPEC_NOT_FOUND: "the spec file does not exist or cannot be read",
  SPEC_SYNTAX: "the spec file is not valid YAML or JSON",
  REF_MISSING: "a $ref points at a location that does not exist",
  REF_UNRESOLVED: "a $ref points at a file that cannot be read",
  SPEC_INVALID: "the document does not conform to OpenAPI 3.1",
  LINT: "a Redocly lint rule failed",
  EXAMPLE_INVALID: "an example does not validate against its schema",
  SPEC_UNSUPPORTED: "valid OpenAPI that generate cannot turn into code as written (a name that is not an identifier, or clashes)",
} as const;

export type ProblemCode = keyof typeof PROBLEM_CODES;

export interface Problem {
  code: ProblemCode;
  /** JSON pointer, always starting with `#`. */
  pointer: string;
  /** File the pointer is in, relative to the working directory when possible. */
  file?: string;
  message: string;
  severity: "error" | "warning";
  /** Lint rule id, for LINT problems. */
  rule?: string;
}

/** `["paths", "/events", "get"]` → `#/paths/~1events/get` (RFC 6901 escaping). */
export function toPointer(path: readonly (string | number)[]): string {
  return "#" + path.map((p) => "/" + String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

export function formatProblem(p: Problem): string {
  const where = `${p.file ?? ""}${p.pointer}`;
  const rule = p.rule ? ` (${p.rule})` : "";
  return `${p.severity === "error" ? "error" : "warning"} ${p.code}${rule} ${where}: ${p.message}`;
}

/** Raised by the spec loader when the document cannot be used; carries every problem found. */
export class SpecError extends Error {
  override name = "SpecError";
  constructor(readonly problems: Problem[]) {
    super(problems.map(formatProblem).join("\n"));
  }
}

/** A problem's file as reported: relative to the working directory (as given, when it is the directory itself). */
export function shownFile(file: string | undefined): string | undefined {
  return file ? relative(process.cwd(), file) || file : undefined;
}

/**
 * One error-severity problem as a SpecError: `file` as shownFile reports it, and the place
 * either as a JSON pointer (`#/components/schemas/Node`) or as the path to one.
 */
export function problem(code: ProblemCode, file: string | undefined, at: string | readonly (string | number)[], message: string): SpecError {
  const pointer = typeof at === "string" ? at : toPointer(at);
  return new SpecError([{ code, pointer, file: shownFile(file), message, severity: "error" }]);
}

/** A contract generate cannot turn into code as written. */
export function unsupported(file: string | undefined, path: readonly (string | number)[], message: string): SpecError {
  return problem("SPEC_UNSUPPORTED", file, path, message);
}
