/**
 * Nesting depth, measured with a stack of our own: the document being measured is the one a
 * recursive walk could not survive (the contract nests 50,000 deep), so the measure
 * itself must not recurse. It stops at the first node past the limit.
 */
import type { CST } from "yaml";

/** Whether a parsed value (JSON.parse's or YAML's) nests deeper than `limit`. */
export function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  // A YAML alias makes a node appear in two places; each object is entered once, at the depth
  // first met, so a document sharing nodes is measured in time linear in its distinct nodes.
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object" || seen.has(node)) continue;
    if (depth > limit) return true;
    seen.add(node);
    for (const child of Object.values(node)) if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The same for YAML text, on the concrete syntax tree the `yaml` library's Parser builds with a
 * stack of its own, before its Composer and `toJS`, which both recurse, see the document. An
 * alias is a leaf here; what it expands to is bounded by `maxAliasCount` and measured again on
 * the value.
 */
export function cstDeeperThan(tokens: readonly CST.Token[], limit: number): boolean {
  const stack: [CST.Token | null | undefined, number][] = tokens.map((t) => [t, 0]);
  while (stack.length > 0) {
    const [token, depth] = stack.pop()!;
    if (!token) continue;
    if (token.type === "document") stack.push([token.value, depth]);
    else if (token.type === "block-map" || token.type === "block-seq" || token.type === "flow-collection") {
      if (depth + 1 > limit) return true;
      for (const item of token.items) stack.push([(item as { key?: CST.Token | null }).key, depth + 1], [item.value, depth + 1]);
    }
  }
  return false;
}
