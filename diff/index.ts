/**
 * `diff`: what a new version of the contract changes, and whom each change breaks — clients
 * (who call the API), servers (who implement it, including the service that sends webhooks) and
 * receivers (who consume its webhooks). The library entry: `diffContracts(base, head)` on two
 * loaded contracts; the CLI (cli/commands/diff.ts) loads them from folders, files or a git
 * revision. The rules for every kind of change are in diff/README.md.
 */
import type { Change } from "./change.ts";
import { diffContext } from "./context.ts";
import { ContractReadError, type Contract } from "./documents.ts";
import { compareOperations } from "./operations.ts";
import { compareRules, type CaseIndex } from "./rules.ts";
import { compareSecuritySchemes } from "./security.ts";
import { compareWebhooks } from "./webhooks.ts";

export { loadContract, ContractReadError, type Contract } from "./documents.ts";
export type { Audience, Change } from "./change.ts";

export interface DiffResult {
  changes: Change[];
  /** What could not be compared, and why (a side without a rule table). */
  notes: string[];
}

/** The contract's changes (synchronous; no rule table): what the benchmark times. */
export function diffDocuments(base: Contract, head: Contract): Change[] {
  if (base.version !== head.version) {
    // See diff/README.md, "OpenAPI 3.0 and 3.1": a 3.0 document cannot say all a 3.1 one says, so
    // the comparison would report what 3.0 cannot express as changes of the contract.
    throw new ContractReadError(`${base.rootFile} is OpenAPI ${base.version} and ${head.rootFile} is OpenAPI ${head.version}: diff compares two documents of the same version (make both with \`service-contract bundle\`, or compare the 3.1 sources)`);
  }
  const ctx = diffContext(base, head);
  return [...compareOperations(ctx), ...compareWebhooks(ctx), ...compareSecuritySchemes(ctx)];
}

export async function diffContracts(base: Contract, head: Contract, options: { caseIndex?: () => Promise<CaseIndex> } = {}): Promise<DiffResult> {
  const changes = diffDocuments(base, head);
  const rules = await compareRules(base, head, options.caseIndex);
  return { changes: [...changes, ...rules.changes], notes: rules.note ? [rules.note] : [] };
}
