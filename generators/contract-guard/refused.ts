/**
 * A contract refused before anything reads it further: it reaches outside its folder, names a
 * URL, or is built to exhaust the reader (an alias bomb, a nesting no recursion survives). The CLI
 * prints the message as one line and exits 2 (cli/main.ts), whichever command read the contract.
 */
export class UnsafeContractError extends Error {
  override name = "UnsafeContractError";
}
