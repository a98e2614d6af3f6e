/**
 * `--only` / `--skip`: which cases a run takes. A pattern list is comma-separated; each pattern is
 * a glob over case IDs (`*` any run of characters, `?` one), case-insensitive, and also matches an
 * area by name (`--only feeds`), so a team can narrow a run without knowing every ID. An `--only`
 * pattern that matches nothing is reported, since it is almost always a typo.
 */
import type { CaseMeta } from "../core/types.ts";

export function parsePatterns(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  const list = typeof value === "string" ? [value] : value;
  return list.flatMap((v) => v.split(",")).map((p) => p.trim()).filter((p) => p.length > 0);
}

function globToRegExp(pattern: string): RegExp {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${source}$`, "i");
}

export function matches(meta: Pick<CaseMeta, "id" | "area">, pattern: string): boolean {
  const re = globToRegExp(pattern);
  return re.test(meta.id) || re.test(meta.area);
}

export interface Selection<T extends CaseMeta> {
  selected: T[];
  /** `--only` patterns that matched no case at all. */
  unmatched: string[];
}

export function selectCases<T extends CaseMeta>(cases: readonly T[], only?: string | readonly string[], skip?: string | readonly string[]): Selection<T> {
  const onlyPatterns = parsePatterns(only);
  const skipPatterns = parsePatterns(skip);
  const unmatched = onlyPatterns.filter((p) => !cases.some((c) => matches(c, p)));
  const selected = cases.filter((c) => (onlyPatterns.length === 0 || onlyPatterns.some((p) => matches(c, p))) && !skipPatterns.some((p) => matches(c, p)));
  return { selected, unmatched };
}
