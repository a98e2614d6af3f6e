/**
 * A contract's `pattern`s as the sets of strings they accept, so two of them can be compared
 * and a value tested without running the contract's regular expression.
 *
 * JSON Schema's `pattern` is an ECMAScript regular expression (with the `u` flag, as Ajv compiles
 * it) that may match anywhere in the string. Without backreferences and lookarounds that is a
 * regular language, and inclusion between two regular languages is decidable: each pattern is
 * turned into a finite automaton (refa, which reads JS regular expressions with regexpp) and
 * `A ⊆ B` is `A ∩ ¬B = ∅`; when it is not empty, its shortest word is a string one side accepts
 * and the other refuses — a counterexample to print.
 *
 * The patterns come from a stranger's contract, so every step is bounded: a pattern longer than
 * MAX_PATTERN_LENGTH is not read, and the parse, the automaton and the determinized automaton may
 * each hold at most MAX_STATES nodes (refa's own limit, which throws before it allocates more).
 * Past a bound, or where the language is not regular (a backreference, a lookaround or `\b` that
 * cannot be resolved away), the answer is "unknown" with the reason, never a guess and never a
 * long run. Membership of a value is decided on the automaton (linear in the value's length), not
 * with a backtracking RegExp: `^(a+)+$` against forty `a`s and a `b` is instant here.
 */
import { combineTransformers, DFA, JS, NFA, transform, Transformers, TooManyNodesError, Words, type NoParent, type Expression } from "refa";

/** The longest pattern read; a longer one is "unknown". */
export const MAX_PATTERN_LENGTH = 2_000;
/** The most nodes any one step (parse, automaton, determinized automaton, intersection) may create. */
export const MAX_STATES = 10_000;

export type Language = { nfa: NFA; dfa?: DFA | string } | { unknown: string };

const cache = new Map<string, Language>();

/** Empties the cache of automata (for the benchmark: each timed run pays for its patterns). */
export function forgetPatterns(): void {
  cache.clear();
}

/** A regular expression as a contract or a format states it. Patterns are read with `u`, as validators compile them. */
export interface Regex {
  source: string;
  flags: string;
}

/**
 * The strings `pattern` matches somewhere in, as an automaton; or why that cannot be had. Other
 * flags than `u` are for formats' expressions (`i`). Every automaton is over code points (`u`),
 * so two can be intersected: an expression written without `u` is read with it, and one that is
 * case-insensitive without `u` is first spelled out without `i` by refa under its own rules
 * (`[a-z]` → `[A-Za-z]`; with `u`, `i` would also let `ſ` and the Kelvin sign match).
 */
export function language(pattern: string, flags = "u"): Language {
  const key = `${flags}/${pattern}`;
  let lang = cache.get(key);
  if (!lang) {
    lang = flags.includes("i") && !flags.includes("u") ? spelledOut(pattern, flags) : build(pattern, [...new Set([...flags, "u"])].join(""));
    if (cache.size > 2_000) cache.clear();
    cache.set(key, lang);
  }
  return lang;
}

function spelledOut(pattern: string, flags: string): Language {
  if (pattern.length > MAX_PATTERN_LENGTH) return { unknown: `the pattern is longer than ${MAX_PATTERN_LENGTH} characters, the bound of the comparison` };
  try {
    const { expression } = JS.Parser.fromLiteral({ source: pattern, flags }).parse({ simplify: false, maxNodes: MAX_STATES });
    return build(JS.toLiteral(expression, { flags: { ignoreCase: false, unicode: false } }).source, "u");
  } catch (error) {
    return { unknown: reason(error) };
  }
}

function build(pattern: string, flags: string): Language {
  if (pattern.length > MAX_PATTERN_LENGTH) return { unknown: `the pattern is longer than ${MAX_PATTERN_LENGTH} characters, the bound of the comparison` };
  let alternatives: string[];
  try {
    // Each top-level alternative is searched for on its own (`^a|b$`), so its anchors sit at its edges.
    alternatives = JS.Parser.fromLiteral({ source: pattern, flags }).ast.pattern.alternatives.map((a) => a.raw);
  } catch {
    return { unknown: "the pattern is not a valid regular expression (with the u flag, as validators compile it)" };
  }
  try {
    // A match anywhere: what the pattern matches, with anything before and after it.
    const source = alternatives.map((a) => `[^]*(?:${a})[^]*`).join("|");
    const parser = JS.Parser.fromLiteral({ source, flags });
    const { expression, maxCharacter } = parser.parse({ backreferences: "throw", assertions: "parse", maxNodes: MAX_STATES });
    let ast: NoParent<Expression> = transform(Transformers.simplify(), expression, { maxPasses: 20 });
    // What is left at the edges of the whole are assertions about nothing (before the first or after
    // the last character). A negated one (`^`, `$`, `(?<!\w)`) holds there; a positive one would
    // fail, which refa's edge transformer does not model: such a pattern stays undecided.
    if (hasPositiveAssertion(ast)) return { unknown: "the pattern holds a lookaround whose language is not decided here" };
    ast = transform(combineTransformers([Transformers.patternEdgeAssertions({ inline: false, remove: true }), Transformers.simplify()]), ast, { maxPasses: 20 });
    const nfa = NFA.fromRegex(ast, { maxCharacter }, { assertions: "throw", unknowns: "throw" }, new NFA.LimitedNodeFactory(MAX_STATES));
    return { nfa };
  } catch (error) {
    return { unknown: reason(error) };
  }
}

/** A step that could not be taken, with its reason as the message. */
class Undecided extends Error {}

function reason(error: unknown): string {
  if (error instanceof Undecided) return error.message;
  if (error instanceof TooManyNodesError) return `the pattern's automaton exceeds ${MAX_STATES} states, the bound of the comparison`;
  const message = error instanceof Error ? error.message : String(error);
  if (/backreference/i.test(message)) return "the pattern holds a backreference (its language is not regular)";
  if (/assertion/i.test(message)) return "the pattern holds a lookaround or word boundary whose language is not decided here";
  return `the pattern could not be read as an automaton (${message.slice(0, 80)})`;
}

function hasPositiveAssertion(node: unknown): boolean {
  if (node === null || typeof node !== "object") return false;
  const n = node as { type?: string; negate?: boolean; alternatives?: unknown[]; elements?: unknown[] };
  if (n.type === "Assertion" && n.negate === false) return true;
  return [...(n.alternatives ?? []), ...(n.elements ?? [])].some(hasPositiveAssertion);
}

/** The determinized automaton (for a complement), built once per pattern, bounded. */
function dfaOf(lang: { nfa: NFA; dfa?: DFA | string }): DFA | string {
  if (lang.dfa === undefined) {
    try {
      const dfa = DFA.fromFA(lang.nfa, new DFA.LimitedNodeFactory(MAX_STATES));
      dfa.minimize();
      lang.dfa = dfa;
    } catch (error) {
      lang.dfa = reason(error);
    }
  }
  return lang.dfa;
}

/** Whether the pattern matches `value`: decided on the automaton, never by running the expression. */
export function matches(pattern: string, value: string): boolean | undefined {
  const lang = language(pattern);
  if ("unknown" in lang) return undefined;
  return lang.nfa.test(Words.fromStringToUnicode(value));
}

/**
 * How the head's pattern relates to the base's. `onlyHead`: a string the head accepts and the base
 * refuses (the head lets writers send more); `onlyBase`: the reverse. Neither: the same strings.
 */
export type Comparison = { unknown: string } | { onlyHead?: string; onlyBase?: string };

/** `undefined` stands for no pattern: every string. */
export function comparePatterns(base: string | undefined, head: string | undefined): Comparison {
  const list = (p: string | undefined) => (p === undefined ? [] : [{ source: p, flags: "u" }]);
  return compareLanguages(list(base), list(head));
}

/**
 * The same for the strings that every expression of a list accepts (a pattern and a format's
 * expression together); an empty list accepts every string.
 */
export function compareLanguages(base: Regex[], head: Regex[]): Comparison {
  try {
    const b = sideOf(base, "base");
    const h = sideOf(head, "head");
    const onlyHead = h === undefined ? (b ? outside(undefined, b) : undefined) : outside(h, b);
    const onlyBase = b === undefined ? (h ? outside(undefined, h) : undefined) : outside(b, h);
    return { ...(onlyHead !== undefined ? { onlyHead } : {}), ...(onlyBase !== undefined ? { onlyBase } : {}) };
  } catch (error) {
    return { unknown: reason(error) };
  }
}

/** A shortest string of `a` (every string when undefined) that `b` (every string when undefined) refuses, or undefined when there is none. */
/** The intersection of a side's languages (undefined: every string); throws Undecided with the reason. */
function sideOf(list: Regex[], side: string): { nfa: NFA; dfa?: DFA | string } | undefined {
  let out: { nfa: NFA; dfa?: DFA | string } | undefined;
  for (const regex of list) {
    const lang = language(regex.source, regex.flags);
    if ("unknown" in lang) throw new Undecided(`${side} ${lang.unknown}`);
    out = out === undefined ? lang : { nfa: NFA.fromIntersection(out.nfa, lang.nfa, new NFA.LimitedNodeFactory(MAX_STATES)) };
  }
  return out;
}

function outside(a: { nfa: NFA; dfa?: DFA | string } | undefined, b: { nfa: NFA; dfa?: DFA | string } | undefined): string | undefined {
  if (b === undefined) return undefined;
  const db = dfaOf(b);
  if (typeof db === "string") throw new Undecided(db);
  const not = db.copy();
  not.complement();
  const from = a === undefined ? not : NFA.fromIntersection(a.nfa, not, new NFA.LimitedNodeFactory(MAX_STATES));
  for (const wordSet of from.wordSets()) return Words.fromUnicodeToString(Words.pickMostReadableWord(wordSet));
  return undefined;
}
