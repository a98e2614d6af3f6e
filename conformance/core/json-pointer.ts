/**
 * The value a JSON pointer (RFC 6901) names inside a document, for failure details: the contract
 * validators, the payload validators and the profile schema all report a pointer, and a report
 * shows the value found there beside it. A pointer into nothing gives undefined, never an error.
 */
export function valueAt(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node;
}
