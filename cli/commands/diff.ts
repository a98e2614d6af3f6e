/**
 * `service-contract diff <base> <head>`: what a new version of the contract breaks, and for whom
 * (clients, servers, webhook receivers), with the rule table's changes. Each side is a spec
 * folder, its root document or a bundle; `--base-ref REV` takes the base from git instead: the
 * head's folder as it is at that revision. Exit 1 when a change reaches the `--fail-on` level
 * (default: unknown, so a change whose compatibility cannot be decided fails like a breaking
 * one), 0 otherwise, 2 for bad usage or a contract that cannot be read.
 */
import { Command, Option } from "commander";
import type { CommandFactory } from "../main.ts";
import { EXIT_CHECK_FAILED, EXIT_OK, UsageError } from "../exit-codes.ts";

interface DiffOptions {
  baseRef?: string;
  format: "text" | "json" | "markdown";
  failOn: "breaking" | "unknown" | "any" | "none";
  for?: string;
}

export const diffCommand: CommandFactory = (setExit) =>
  new Command("diff")
    .description("Compare two versions of the contract: each change, whether it is breaking, and whom it breaks (clients, servers, receivers).")
    .argument("[contracts...]", "<base> <head>: spec folders, root documents or bundles; with --base-ref only <head> (default: spec)")
    .option("--base-ref <rev>", "take the base from git: the head's folder as it is at this revision (a branch, tag or commit)")
    .addOption(new Option("--format <format>", "output format").choices(["text", "json", "markdown"]).default("text"))
    .addOption(
      new Option("--fail-on <level>", "exit 1 when a change at this level or above is found: breaking; unknown (breaking, or compatibility undecided); any change; none")
        .choices(["breaking", "unknown", "any", "none"])
        .default("unknown"),
    )
    .option("--for <audiences>", "judge for these audiences only, a comma list of clients, servers, receivers: only changes that break them count as breaking for --fail-on (default: all three)")
    .addHelpText(
      "after",
      "\nExamples:\n  service-contract diff --base-ref main spec/\n  service-contract diff old-spec/ spec/ --format json\n" +
        "  service-contract diff --base-ref origin/main spec/ --format markdown --fail-on none > comment.md\n" +
        "  service-contract diff --base-ref main spec/ --for clients      # a pipeline that only builds a client\n" +
        "\nExit codes: 0 nothing at the --fail-on level, 1 a change at that level (by default: breaking or of unknown compatibility), 2 a usage error or a contract that cannot be read.",
    )
    .action(async (contracts: string[], opts: DiffOptions) => {
      let basePath: string;
      let headPath: string;
      if (opts.baseRef !== undefined) {
        if (contracts.length > 1) throw new UsageError(`with --base-ref give only the head contract, got ${contracts.length}: ${contracts.join(" ")}`);
        // The working folder's spec/, as in the pipeline line: with --base-ref the head is
        // a folder of this repository, never the installed package's own contract.
        headPath = contracts[0] ?? "spec";
        basePath = "";
      } else {
        if (contracts.length !== 2) throw new UsageError(`give a base and a head contract (or --base-ref REV and the head), got ${contracts.length}`);
        [basePath, headPath] = contracts as [string, string];
      }
      const audiences = audiencesOf(opts.for);
      // Loaded here: the other commands need none of it.
      const [{ ContractReadError, diffContracts, loadContract }, { checkoutAt }, format] = await Promise.all([
        import("../../diff/index.ts"),
        import("../../diff/git-revision.ts"),
        import("../../diff/format.ts"),
      ]);
      let removeCheckout = () => {};
      // A message about the base names the revision (`main:spec`), never the temporary folder it was read into.
      let relabel = (message: string) => message;
      try {
        const head = loadContract(headPath);
        let baseLabel = basePath;
        if (opts.baseRef !== undefined) {
          const checkout = checkoutAt(opts.baseRef, headPath);
          removeCheckout = checkout.remove;
          relabel = checkout.relabel;
          basePath = checkout.path;
          baseLabel = `${headPath} at ${opts.baseRef}`;
        }
        const base = loadContract(basePath);
        const result = await diffContracts(base, head);
        const report = { base: baseLabel, head: headPath, audiences, ...result };
        const print = opts.format === "json" ? format.formatJson : opts.format === "markdown" ? format.formatMarkdown : format.formatText;
        process.stdout.write(print(report));
        setExit(format.fails(report, opts.failOn) ? EXIT_CHECK_FAILED : EXIT_OK);
      } catch (error) {
        if (error instanceof ContractReadError) throw new UsageError(relabel(error.message));
        throw error;
      } finally {
        removeCheckout();
      }
    });

const AUDIENCE_NAMES = ["clients", "servers", "receivers"] as const;

/** `--for clients,receivers` → the audiences, in their usual order; all three without the option. */
function audiencesOf(list: string | undefined): ("clients" | "servers" | "receivers")[] {
  if (list === undefined) return [...AUDIENCE_NAMES];
  const asked = list.split(",").map((a) => a.trim()).filter((a) => a !== "");
  const unknown = asked.filter((a) => !(AUDIENCE_NAMES as readonly string[]).includes(a));
  if (asked.length === 0 || unknown.length > 0) throw new UsageError(`--for takes a comma list of ${AUDIENCE_NAMES.join(", ")}, got ${JSON.stringify(list)}`);
  return AUDIENCE_NAMES.filter((a) => asked.includes(a));
}
