/**
 * How far a contract may go before it is refused as built to exhaust its reader. Both are far
 * above any real contract (the project's own nests 12 deep and has no YAML alias), and far below
 * what the readers after this one survive: swagger-parser, Redocly and `diff`'s schema comparison
 * all recurse on nesting, and js-yaml shares an aliased node that the traversals after it then
 * walk once per alias (the issue's 500-byte bomb: 10⁹ leaves).
 */

/** Objects and arrays inside one another, counting the document itself as 1. */
export const MAX_CONTRACT_DEPTH = 256;

/**
 * The `yaml` library's `maxAliasCount`: how many nodes its aliases may expand to in all, counted
 * before they are expanded (its default; a document that needs more is refused).
 */
export const MAX_ALIAS_COUNT = 100;
