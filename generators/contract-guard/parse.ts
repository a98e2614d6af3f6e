/**
 * A contract file's text to its value, refusing what is built to exhaust a reader before it is
 * expanded: nesting deeper than MAX_CONTRACT_DEPTH (measured on the parser's tree, which the
 * `yaml` library builds without recursing, before its composer and `toJS`, which recurse) and YAML aliases that
 * expand past MAX_ALIAS_COUNT nodes (counted by `toJS` before it expands them). A syntax error is
 * thrown as the parser's own error: saying where the text is broken is the caller's business.
 */
import { Composer, Parser, type CST } from "yaml";
import { cstDeeperThan, deeperThan } from "./depth.ts";
import { MAX_ALIAS_COUNT, MAX_CONTRACT_DEPTH } from "./limits.ts";
import { UnsafeContractError } from "./refused.ts";

const TOO_DEEP = `nests objects and arrays more than ${MAX_CONTRACT_DEPTH} deep; a contract is refused before such a document is read further`;

/**
 * `shown` names the file in a refusal. JSON (a `.json` file, or a YAML file holding JSON, as a
 * bundle is) goes through JSON.parse, which does not recurse and is many times faster.
 */
export function parseContractText(text: string, json: boolean, shown: string): unknown {
  let value: unknown;
  let parsedAsJson = false;
  if (json || /^\s*[{[]/.test(text)) {
    try {
      value = JSON.parse(text);
      parsedAsJson = true;
    } catch (error) {
      if (json) throw error;
    }
  }
  if (!parsedAsJson) {
    // parseDocument's two halves, with the depth measured between them.
    const tokens: CST.Token[] = [...new Parser().parse(text)];
    if (cstDeeperThan(tokens, MAX_CONTRACT_DEPTH)) throw new UnsafeContractError(`${shown} ${TOO_DEEP}`);
    const docs = [...new Composer().compose(tokens, true, text.length)];
    const doc = docs[0];
    if (doc === undefined) return null;
    if (docs.length > 1) throw new Error(`${shown} holds ${docs.length} YAML documents; a contract file holds one`);
    if (doc.errors.length > 0) throw doc.errors[0]!;
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      if (error instanceof ReferenceError && /alias/i.test(error.message)) {
        throw new UnsafeContractError(`${shown}: its YAML aliases expand past ${MAX_ALIAS_COUNT} nodes (an alias bomb); a contract is refused before they are expanded`);
      }
      throw error;
    }
  }
  // Again on the value: an alias may hang a deep node under another deep one.
  if (deeperThan(value, MAX_CONTRACT_DEPTH)) throw new UnsafeContractError(`${shown} ${TOO_DEEP}`);
  return value;
}
