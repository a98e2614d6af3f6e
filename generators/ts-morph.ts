/**
 * ts-morph, loaded with require() rather than import. Node's ESM loader scans a CommonJS
 * module's source for its export names before running it (cjs-module-lexer), and under tsx its
 * load hook reads the file first as well; ts-morph is a megabyte of CommonJS, so importing it
 * costs a noticeable share of `generate`. require() runs it without either. The targets import
 * ts-morph's values from here and its types from "ts-morph" itself (types cost nothing at run time).
 */
import { createRequire } from "node:module";

const tsMorph = createRequire(import.meta.url)("ts-morph") as typeof import("ts-morph");

export const { IndentationText, Project, Scope, StructureKind, VariableDeclarationKind, Writers } = tsMorph;
