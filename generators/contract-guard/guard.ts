/**
 * The door every contract comes through before swagger-parser, Redocly or the generators read it
 * (generators/load-spec.ts, `lint`): the root document and every file its `$ref`s reach, read
 * with parseContractText's limits, each `$ref` checked to stay in the contract's folder and to
 * name no URL. Those readers follow `$ref`s to anywhere and expand aliases without a bound; after
 * this pass there is nothing of either left for them to find. Nothing else is judged here: a file
 * that does not parse, a `$ref` to a file that does not exist, is left for the readers after it
 * to report as they always have.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import { parseContractText } from "./parse.ts";
import { checkFileInside, checkRefTarget } from "./place.ts";
import { UnsafeContractError } from "./refused.ts";

const escapeToken = (token: string): string => token.replace(/~/g, "~0").replace(/\//g, "~1");

/** How a file is named in a refusal: relative to the working folder, as the user named the spec. */
function shownFile(file: string): string {
  return relative(process.cwd(), file) || file;
}

/** The `$ref`s in a document, each with the JSON pointer of the object holding it; no recursion. */
function refsIn(doc: unknown): { ref: string; pointer: string }[] {
  const found: { ref: string; pointer: string }[] = [];
  const stack: [unknown, string][] = [[doc, ""]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [node, pointer] = stack.pop()!;
    if (node === null || typeof node !== "object" || seen.has(node)) continue;
    seen.add(node);
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string") found.push({ ref, pointer });
    for (const [key, child] of Object.entries(node)) if (child !== null && typeof child === "object") stack.push([child, `${pointer}/${escapeToken(key)}`]);
  }
  return found;
}

/**
 * Throws UnsafeContractError (one line: the file, the `$ref`, why) when the contract at `rootFile`
 * may not be read. Returns the root document as parsed (undefined when it did not parse), so that
 * a caller that reads it next (generate's model) need not parse 200 kB of YAML a second time.
 */
export function guardContract(rootFile: string): unknown {
  const folder = dirname(resolve(rootFile));
  const queue = [resolve(rootFile)];
  const done = new Set<string>();
  let root: unknown;
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (done.has(file)) continue;
    done.add(file);
    if (!existsSync(file) || statSync(file).isDirectory()) continue;
    checkFileInside(file, folder, shownFile(file));
    let doc: unknown;
    try {
      doc = parseContractText(readFileSync(file, "utf8"), /\.json$/i.test(file), shownFile(file));
    } catch (error) {
      if (error instanceof UnsafeContractError) throw error;
      continue;
    }
    if (done.size === 1) root = doc;
    const base = pathToFileURL(file);
    for (const { ref, pointer } of refsIn(doc)) {
      const hash = ref.indexOf("#");
      const address = hash >= 0 ? ref.slice(0, hash) : ref;
      if (address === "") continue;
      let target: URL;
      try {
        target = new URL(address, base);
      } catch {
        continue;
      }
      checkRefTarget(target, ref, `${shownFile(file)}#${pointer}`, folder);
      queue.push(fileURLToPath(target));
    }
  }
  return root;
}
