/**
 * A contract as `diff` reads it: the root document and every file its `$ref`s reach, parsed
 * (YAML or JSON) and kept by URL, with a resolver that follows `$ref` chains across files and
 * remembers where each resolved node lives. Nothing is validated beyond what comparing needs (a
 * file that parses, a `$ref` that leads somewhere): `lint` is the validator. Every `$ref` is
 * followed once at load time, so a broken contract is refused before any comparison starts.
 *
 * The contract may be a stranger's (a pull request's): it is read from its own folder only, with
 * no URL fetched, no alias bomb expanded and no nesting a recursion cannot survive
 * (generators/contract-guard/), and every walk over it here keeps its own stack.
 *
 * A node keeps its identity (the same object for the same place), which lets the schema
 * comparison memoize on pairs of nodes: the contract's `User` is compared once, however many
 * operations and payloads use it.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseContractText } from "../generators/contract-guard/parse.ts";
import { checkFileInside, checkRefTarget } from "../generators/contract-guard/place.ts";
import { UnsafeContractError } from "../generators/contract-guard/refused.ts";

export type Json = unknown;
export type JsonObject = Record<string, Json>;

/** Where a node is: the document's URL and a JSON pointer in it (`""` for the whole document). */
export interface Location {
  url: string;
  pointer: string;
}

/** Raised when a contract cannot be read; the CLI prints the message as one line and exits 2. */
export class ContractReadError extends Error {
  override name = "ContractReadError";
}

export function escapeToken(token: string | number): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

export function isObject(value: Json): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export class Contract {
  /** The root document's file, as given (after a folder was turned into its openapi.yaml). */
  readonly rootFile: string;
  /** The folder holding the root document: the spec folder, where seed-rules.yaml and DECISIONS.md are. */
  readonly folder: string;
  readonly rootUrl: string;
  readonly root: JsonObject;
  /** `3.0` or `3.1`: the OpenAPI minor version the root document declares (anything else is refused). */
  readonly version: "3.0" | "3.1";
  private readonly docs = new Map<string, Json>();
  /** A `$id` (`https://…/schemas/user.json`) → the URL of the file that declares it. */
  private readonly ids = new Map<string, string>();

  constructor(rootFile: string) {
    this.rootFile = rootFile;
    this.folder = dirname(resolve(rootFile));
    this.rootUrl = pathToFileURL(resolve(rootFile)).href;
    const root = this.load(this.rootUrl);
    if (!isObject(root)) throw new ContractReadError(`${rootFile} is not an OpenAPI document (its top level is not an object)`);
    this.version = openApiVersion(rootFile, root);
    this.root = root;
    this.checkRefs(this.rootUrl, root);
  }

  /** A location as people read it: the file relative to the contract's folder, then the pointer. */
  shown(loc: Location): string {
    let file = this.fileNames.get(loc.url);
    if (file === undefined) {
      file = loc.url.startsWith("file:") ? relative(this.folder, fileURLToPath(loc.url)).split(sep).join("/") : loc.url;
      this.fileNames.set(loc.url, file);
    }
    return `${file}#${loc.pointer}`;
  }

  private readonly fileNames = new Map<string, string>();
  /** `$ref` as written (with the URL of the document it is in) → where it leads: the comparison follows the same ones many times. */
  private readonly resolved = new Map<string, { loc: Location; node: Json }>();

  private load(url: string): Json {
    if (this.docs.has(url)) return this.docs.get(url);
    const file = fileURLToPath(url);
    guarded(() => checkFileInside(file, this.folder, this.shownFile(file)));
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      throw new ContractReadError(`cannot read ${this.shownFile(file)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    let doc: Json;
    try {
      doc = parseDocument(file, text, this.shownFile(file));
    } catch (error) {
      if (error instanceof UnsafeContractError) throw new ContractReadError(error.message);
      throw new ContractReadError(`${this.shownFile(file)} is not valid ${/\.json$/i.test(file) ? "JSON" : "YAML"}: ${(error as Error).message.split("\n")[0]}`);
    }
    this.docs.set(url, doc);
    if (isObject(doc) && typeof doc.$id === "string") this.ids.set(doc.$id.replace(/#.*$/, ""), url);
    return doc;
  }

  private shownFile(file: string): string {
    return relative(process.cwd(), file) || file;
  }

  /**
   * Follows every `$ref` once, so a contract with a dangling one is refused at load time. Its own
   * stack, not recursion: the depth is bounded when a file is read, but a chain of `$ref`s into
   * other files adds theirs.
   */
  private checkRefs(rootUrl: string, root: Json): void {
    const seen = new Set<string>();
    const stack: [string, Json, string][] = [[rootUrl, root, ""]];
    while (stack.length > 0) {
      const [url, node, pointer] = stack.pop()!;
      if (Array.isArray(node)) {
        for (let i = node.length - 1; i >= 0; i--) stack.push([url, node[i], `${pointer}/${i}`]);
        continue;
      }
      if (!isObject(node)) continue;
      const children = Object.entries(node).filter(([key]) => key !== "$ref");
      for (let i = children.length - 1; i >= 0; i--) stack.push([url, children[i]![1], `${pointer}/${escapeToken(children[i]![0])}`]);
      if (typeof node.$ref === "string") {
        const target = this.target(node.$ref, url, { url, pointer });
        const key = `${target.url}#${target.pointer}`;
        if (!seen.has(key)) {
          seen.add(key);
          stack.push([target.url, this.at(target, { url, pointer }), target.pointer]);
        }
      }
    }
  }

  /** Where `$ref` (written in the document at `base`) points; `from` names the `$ref` in errors. */
  private target(ref: string, base: string, from: Location): Location {
    let absolute: URL;
    try {
      absolute = new URL(ref, base);
    } catch {
      throw new ContractReadError(`${this.shown(from)}: $ref ${JSON.stringify(ref)} is not a URI reference`);
    }
    const pointer = decodeURIComponent(absolute.hash.slice(1));
    absolute.hash = "";
    let url = absolute.href;
    if (!url.startsWith("file:")) {
      // An address a schema file declares as its `$id` is that file; any other is never fetched.
      const file = this.ids.get(url);
      if (file === undefined) throw new ContractReadError(`${this.shown(from)}: $ref ${JSON.stringify(ref)} points at a URL that names no file of the contract; a contract is read from its own folder only, never fetched`);
      url = file;
    } else if (!this.docs.has(url)) {
      guarded(() => checkRefTarget(absolute, ref, this.shown(from), this.folder));
      if (!existsSync(fileURLToPath(url)) || statSync(fileURLToPath(url)).isDirectory()) throw new ContractReadError(`${this.shown(from)}: $ref ${ref} names a file that does not exist`);
    }
    this.load(url);
    return { url, pointer };
  }

  /** The node at a location; `from` names the `$ref` that led there, for the error. */
  private at(loc: Location, from?: Location): Json {
    let node = this.load(loc.url);
    if (loc.pointer === "") return node;
    for (const token of loc.pointer.slice(1).split("/").map(unescapeToken)) {
      if (Array.isArray(node) && /^\d+$/.test(token) && Number(token) < node.length) node = node[Number(token)];
      else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
      else throw new ContractReadError(`${from ? this.shown(from) : this.shown(loc)}: $ref to ${this.shown(loc)}, which does not exist`);
    }
    return node;
  }

  /**
   * Follows `node`'s `$ref` chain (node found at `loc`). A `$ref` with sibling keywords (allowed
   * in OpenAPI 3.1) keeps the siblings: they are laid over the target, except the annotations,
   * which change nothing a comparison looks at; the result then is a new object at the `$ref`'s place.
   */
  deref(node: Json, loc: Location): { node: Json; loc: Location } {
    let current = node;
    let where = loc;
    let extra: JsonObject | undefined;
    for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
      if (hops > 64) throw new ContractReadError(`${this.shown(loc)}: $ref chain longer than 64 hops (a cycle of $refs)`);
      const { $ref, ...siblings } = current;
      const kept = Object.entries(siblings).filter(([k]) => !ANNOTATIONS.has(k) && !k.startsWith("x-"));
      if (kept.length > 0) extra = { ...Object.fromEntries(kept), ...extra };
      const key = `${where.url}\0${$ref as string}`;
      let hit = this.resolved.get(key);
      if (!hit) {
        const target = this.target($ref as string, where.url, where);
        hit = { loc: target, node: this.at(target, where) };
        this.resolved.set(key, hit);
      }
      current = hit.node;
      where = hit.loc;
    }
    if (extra && isObject(current)) return { node: { ...current, ...extra }, loc };
    return { node: current, loc: where };
  }
}

/**
 * The OpenAPI version a root document declares, or a one-line refusal saying what the file is
 * instead: `diff` compares by OpenAPI's rules, and read as a contract a JSON Schema file or a
 * package.json would only produce a page of meaningless "removed" lines.
 */
function openApiVersion(file: string, root: JsonObject): "3.0" | "3.1" {
  const declared = root.openapi;
  if (declared === undefined) {
    if (root.swagger !== undefined) throw new ContractReadError(`${file} is a Swagger ${String(root.swagger)} document, not OpenAPI 3.0 or 3.1 (convert it first, e.g. with swagger2openapi)`);
    const looksLike = typeof root.$schema === "string" || root.type !== undefined || root.properties !== undefined || root.$defs !== undefined ? " (it looks like a JSON Schema)" : root.name !== undefined && (root.version !== undefined || root.dependencies !== undefined) ? " (it looks like a package manifest)" : "";
    throw new ContractReadError(`${file} is not an OpenAPI document: it has no "openapi" field${looksLike}`);
  }
  const match = typeof declared === "string" ? /^3\.([01])\.\d+(-.+)?$/.exec(declared) : null;
  if (!match) throw new ContractReadError(`${file} declares OpenAPI ${JSON.stringify(declared)}; diff reads OpenAPI 3.0.x and 3.1.x`);
  return match[1] === "0" ? "3.0" : "3.1";
}

/**
 * Parsed documents by their text. The two sides of a diff are mostly the same files (two
 * revisions, a copy with one edit), and parsing YAML is most of reading a contract: a text met
 * again is parsed once. A Contract only reads its documents, never changes them, so the two sides
 * may share one. Bounded, so a long-lived process comparing many contracts keeps a few of them.
 */
const parsed = new Map<string, Json>();
const PARSED_LIMIT = 2000;

function parseDocument(file: string, text: string, shown: string): Json {
  const json = /\.json$/i.test(file);
  const key = `${json ? "json" : "yaml"}\n${text}`;
  if (parsed.has(key)) return parsed.get(key);
  // JSON.parse is many times faster than the YAML parser, and JSON is YAML: a .yaml file
  // holding JSON (a bundle, a generated document) takes the fast way (parseContractText).
  const doc = parseContractText(text, json, shown);
  if (parsed.size >= PARSED_LIMIT) parsed.clear();
  parsed.set(key, doc);
  return doc;
}


/** Runs a contract-guard check, its refusal as the ContractReadError the CLI prints in one line. */
function guarded(check: () => void): void {
  try {
    check();
  } catch (error) {
    if (error instanceof UnsafeContractError) throw new ContractReadError(error.message);
    throw error;
  }
}

/** Keywords that document and never constrain: a change to them is no change (issue 26: cosmetic). */
export const ANNOTATIONS = new Set(["description", "summary", "title", "example", "examples", "$comment", "externalDocs", "$id", "$schema", "$anchor"]);

/** The child location `key` under `loc`. */
export function child(loc: Location, ...keys: (string | number)[]): Location {
  return { url: loc.url, pointer: loc.pointer + keys.map((k) => `/${escapeToken(k)}`).join("") };
}

/**
 * A contract argument as given on the command line: a spec folder (its `openapi.yaml`, `.yml` or
 * `.json`), a root document, or a bundle (one self-contained file).
 */
export function rootFileOf(argument: string): string {
  if (!existsSync(argument)) throw new ContractReadError(`no such file or folder: ${argument}`);
  if (!statSync(argument).isDirectory()) return argument;
  for (const name of ["openapi.yaml", "openapi.yml", "openapi.json"]) {
    if (existsSync(join(argument, name))) return join(argument, name);
  }
  throw new ContractReadError(`${argument} is a folder without openapi.yaml, openapi.yml or openapi.json`);
}

export function loadContract(argument: string): Contract {
  return new Contract(rootFileOf(argument));
}
