/**
 * `service-contract conformance`: the conformance suite against any implementation (by URL, with
 * a profile saying what it may use there) or, with `--reference`, against the reference server
 * started on a temporary in-memory database. Progress on the console as cases finish, then the
 * chosen reports (and, with --suggest-decisions, the profile's decisions block that would make the
 * contract level pass). Exit 0 when every selected case passes (skips allowed), 1 when a seed
 * rule fails, 3 when only the contract's decisions do, 4 for an internal error (never 1:
 * cli/main.ts), 2 for bad usage — an unknown reporter, a missing or invalid profile, a selection that matches nothing,
 * a report folder that cannot be written — or a target that does not answer. Every request has a
 * time limit (--request-timeout), so a target that never answers fails cases, not the run.
 */
import { Command } from "commander";
import type { CommandFactory } from "../main.ts";
import { EXIT_CHECK_FAILED, EXIT_DECISIONS_FAILED, EXIT_OK, UsageError } from "../exit-codes.ts";
import { resolvePeer } from "../../generators/package-files.ts";
import type { Profile } from "../../conformance/core/profile.ts";
import { firstMissing, removeMade } from "../made-folders.ts";
import { newShuffleSeed, parseShuffleSeed } from "../../conformance/run/shuffle.ts";

interface ConformanceOptions {
  baseUrl?: string;
  authUrl?: string;
  profile?: string;
  only?: string;
  skip?: string;
  reporter: string;
  out: string;
  receiverHost: string;
  caseTimeout: string;
  requestTimeout: string;
  maxResponseBytes?: string;
  reference?: boolean;
  receiver?: string;
  secret?: string;
  contentTypes?: string;
  oauthClient?: boolean;
  list?: boolean;
  adminToken?: string;
  suggestDecisions?: boolean;
  /** `--shuffle` alone: true; `--shuffle=N` / `--shuffle N`: the seed as written. */
  shuffle?: boolean | string;
}

function httpUrl(flag: string, value: string | undefined): string {
  if (!value) throw new UsageError(`${flag} is required (or use --reference)`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL, got ${value}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`${flag} must be an http(s) URL, got ${value}`);
  return value.replace(/\/+$/, "");
}

/** --shuffle: absent, bare (a new seed) or a seed 1 … 2³¹−1. */
function shuffleSeed(value: boolean | string | undefined): number | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return newShuffleSeed();
  const seed = parseShuffleSeed(value);
  if (seed === undefined) throw new UsageError(`--shuffle takes a whole number from 1 to 2147483647 as its seed, got ${value}`);
  return seed;
}

/** --max-response-bytes: a whole number of bytes, 1 KB to 1 GB (the profile schema's range). */
function parseBytes(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1024 || n > 1024 ** 3) throw new UsageError(`${flag} must be a whole number of bytes from 1024 to 1073741824, got ${value}`);
  return n;
}

function parseSeconds(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 3600) throw new UsageError(`${flag} must be a number of seconds (0 < s ≤ 3600), got ${value}`);
  return Math.round(n * 1000);
}

/**
 * The profile: a file, or `demo` — the built-in profile of a server with the demo data (`serve`),
 * also taken when no --profile is given and the target signs octocat in with the demo password.
 */
async function targetProfile(opts: ConformanceOptions, baseUrl: string): Promise<Profile> {
  const adminToken = opts.adminToken ?? (process.env.SERVICE_CONTRACT_ADMIN_TOKEN || undefined);
  if (opts.profile === undefined || opts.profile === "demo") {
    const { demoProfile, declaredLimitsNote, hasDemoData, DemoProfileError } = await import("../../conformance/run/demo-profile.ts");
    if (opts.profile === undefined) {
      if (!(await hasDemoData(baseUrl))) throw new UsageError("--profile is required (or use --reference): the target has no demo data (octocat does not sign in with the demo password), so say what the suite may use there");
      process.stderr.write("No --profile: the target has the demo data (octocat signs in), so the built-in demo profile is used (--profile demo)\n");
    }
    try {
      const profile = await demoProfile(baseUrl, { adminToken });
      const limits = declaredLimitsNote(profile);
      if (limits) process.stderr.write(`${limits}\n`);
      if (!adminToken) process.stderr.write("The demo profile has no triggers without the admin token of serve --simulate (--admin-token or $SERVICE_CONTRACT_ADMIN_TOKEN): the event and webhook cases are skipped\n");
      return profile;
    } catch (error) {
      if (error instanceof DemoProfileError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (opts.adminToken !== undefined) throw new UsageError("--admin-token goes with --profile demo: a profile file has its own triggers");
  const { loadProfile, ProfileError } = await import("../../conformance/run/load-profile.ts");
  try {
    return loadProfile(opts.profile);
  } catch (error) {
    if (error instanceof ProfileError) throw new UsageError(error.message);
    throw error;
  }
}

const HELP = `
Exit codes: 0 every selected case passed (skips allowed), 1 a seed rule failed (the target breaks
the seed), 3 only the contract's own decisions failed (D- rules: switch off in the profile's
"decisions" those your target chose otherwise — --suggest-decisions prints that block, every
departure of the run with its evidence), 2 bad usage (also an --out folder that cannot be
written) or an unreachable target, 4 an internal error of the suite (a bug: report it). Patterns for --only/--skip are
comma-separated globs over case IDs or area names (OAUTH-*, FEEDS-ETAG-00?, webhooks). The profile says what the suite may use on your
target: users[0] (login, password, a token with repo, admin:repo_hook, admin:org_hook, user),
optionally a second user, an OAuth app, an org, a public and a private repository, an issue, an
authorize driver, and triggers that make events happen; a case whose needs are missing is
skipped with the field to fill in. Format: conformance/README.md and
spec/conformance-profile.schema.json; conformance/profiles/example.yaml is a full one.

Examples:
  service-contract conformance --reference --reporter console,html --out report
  service-contract conformance --base-url https://api.example.test --auth-url https://example.test \\
    --profile conformance/profiles/example.yaml --reporter console,junit --out report
  service-contract conformance --base-url http://127.0.0.1:8080 --auth-url http://127.0.0.1:8081 \\
    --profile my-server.yaml --suggest-decisions
  service-contract conformance --reference --only 'OAUTH-*' --skip OAUTH-REDIRECT-004
  service-contract conformance --receiver http://127.0.0.1:9000/hook --secret s3cret --reporter console,junit
  service-contract conformance --oauth-client --profile my-client.yaml --reporter console,html`;

export const conformanceCommand: CommandFactory = (setExit) =>
  new Command("conformance")
    .description("Run the conformance suite against an implementation (or the reference server) and report rule by rule.")
    .option("--base-url <url>", "the target's API host")
    .option("--auth-url <url>", "the target's web host (authorize page, token exchange)")
    .option("--profile <file|demo>", "YAML or JSON profile: users, application, repositories, triggers, authorize driver, decisions; demo: the built-in profile of a server with the demo data (the default when the target has it)")
    .option("--admin-token <token>", "with --profile demo: the admin token of serve --simulate, for the triggers (default: $SERVICE_CONTRACT_ADMIN_TOKEN)")
    .option("--only <patterns>", "run only the cases matching these patterns")
    .option("--skip <patterns>", "leave out the cases matching these patterns")
    .option("--reporter <list>", "console, junit, json, html (comma-separated)", "console")
    .option("--out <dir>", "folder for junit.xml, results.json and report.html", "report")
    .option("--receiver-host <address>", "address of the built-in webhook receiver (must be reachable from the target)", "127.0.0.1")
    .option("--case-timeout <seconds>", "time limit of one case", "30")
    .option("--request-timeout <seconds>", "time limit of one request, answer and body (a target that never answers fails the case)", "10")
    .option("--max-response-bytes <bytes>", "the most one answer's body may weigh, counted after decompression (default 8388608, or the profile's limits.maxResponseBytes); a longer answer fails its case")
    .option("--reference", "start the reference server on a temporary database and run against it")
    .option("--receiver <url>", "check a webhook receiver instead of a server: the suite sends it deliveries (with --secret)")
    .option("--secret <secret>", "the secret the receiver checks signatures with (--receiver)")
    .option("--content-types <list>", "the delivery content types the receiver takes: json (default, the seed's), form, or json,form (--receiver)")
    .option("--oauth-client", "check an OAuth web-flow client: the reference plays the authorization server (with --profile, the client's profile)")
    .option("--suggest-decisions", "after the run, print the profile's decisions: block that would make the contract level pass (each failed decision off, or the value the run saw), with its evidence, to review and paste")
    .option("--shuffle [seed]", "run the selected cases in a random order drawn from SEED (printed, so the order can be run again; a case's verdict must not depend on the order)")
    .option("--list", "print the rule table (every rule of the seed and of spec/DECISIONS.md, its cases, its place in the reference) and run nothing")
    .addHelpText("after", HELP)
    .action(async (opts: ConformanceOptions) => {
      if (opts.list) {
        const [{ TABLE_CASES }, { formatRuleTable, ruleTable, problems }] = await Promise.all([import("../../conformance/rules/cases.ts"), import("../../conformance/rules/table.ts")]);
        process.stdout.write(`${formatRuleTable(ruleTable(TABLE_CASES))}
`);
        const found = problems(TABLE_CASES);
        for (const p of found) process.stderr.write(`rule table: ${p}
`);
        setExit(found.length > 0 ? EXIT_CHECK_FAILED : EXIT_OK);
        return;
      }
      const { parseReporters, prepareReportDir, writeReports, ConsoleReporter } = await import("../../conformance/report/index.ts");
      let reporters;
      try {
        reporters = parseReporters(opts.reporter);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      const shuffle = shuffleSeed(opts.shuffle);
      if (shuffle !== undefined) process.stderr.write(`Cases in shuffled order, seed ${shuffle} (run the same order again: --shuffle=${shuffle})\n`);
      const timeoutMs = parseSeconds("--case-timeout", opts.caseTimeout);
      const requestTimeoutMs = parseSeconds("--request-timeout", opts.requestTimeout);
      const maxResponseBytes = parseBytes("--max-response-bytes", opts.maxResponseBytes);
      // The consumer suites (a webhook receiver, an OAuth client) have their own cases and targets.
      const consumer = opts.receiver !== undefined || opts.oauthClient ? await import("./conformance-consumers.ts") : undefined;
      // --reference: the server starts now, while the cases load and the selection is checked
      // (its start is seconds, much of it waiting); a usage error below closes it again. It is
      // announced only once the run goes on, so a usage error is still the one line on stderr.
      let starting: Promise<import("../../conformance/reference-profile.ts").ReferenceTarget> | undefined;
      if (!consumer && opts.reference) {
        const extra = (["baseUrl", "authUrl", "profile"] as const).filter((k) => opts[k] !== undefined);
        if (extra.length > 0) throw new UsageError(`--reference starts its own target: drop ${extra.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(", ")}`);
        starting = import("../../conformance/reference-profile.ts").then((m) => m.startReferenceTarget());
        // Awaited by runReference; a failed start is reported there, not as an unhandled rejection.
        starting.catch(() => undefined);
      }
      const abandonStart = (): Promise<void> | undefined => starting?.then((t) => t.close(), () => undefined);
      try {
        if (consumer) consumer.checkConsumerOptions(opts);
        else {
          const { ALL_CASES } = await import("../../conformance/cases/index.ts");
          const { selectCases } = await import("../../conformance/run/select.ts");
          const { selected, unmatched } = selectCases(ALL_CASES, opts.only, opts.skip);
          if (unmatched.length > 0) throw new UsageError(`--only ${unmatched.join(",")} matches no case`);
          if (selected.length === 0) throw new UsageError(ALL_CASES.length === 0 ? "no cases are registered" : "nothing to run: every case is excluded by --skip");
        }
      } catch (error) {
        await abandonStart();
        throw error;
      }

      const consoleReporter = reporters.includes("console") ? new ConsoleReporter({ write: (t) => process.stdout.write(t), color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR }) : undefined;
      // The report folder must be writable before the run, not after it. If this run makes it and
      // then fails or is interrupted (Ctrl-C, SIGTERM) before the reports are in it, it goes again.
      const made = firstMissing(opts.out);
      const onSignal = (signal: NodeJS.Signals): void => {
        removeMade(made);
        // The exit status a shell expects of a command ended by the signal (128 + its number).
        process.exit(signal === "SIGINT" ? 130 : 143);
      };
      try {
        prepareReportDir(reporters, opts.out);
      } catch (error) {
        removeMade(made);
        await abandonStart();
        throw new UsageError(`cannot write the reports to ${opts.out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      try {
        const suite = { only: opts.only, skip: opts.skip, ...(shuffle !== undefined ? { shuffle } : {}), timeoutMs, requestTimeoutMs, maxResponseBytes, receiverHost: opts.receiverHost, onProgress: consoleReporter?.onProgress };

        let summary;
        if (consumer) summary = await consumer.runConsumerSuite(opts, suite);
        else if (starting) {
          const { runReference } = await import("../../conformance/reference-profile.ts");
          process.stderr.write("Starting the reference server (in-memory database, demo seed)…\n");
          summary = await runReference({ ...suite, starting, onStarted: (t) => process.stderr.write(`Reference server: API ${t.server.urls.api}, web host ${t.server.urls.auth}\n`) });
        } else {
          const baseUrl = httpUrl("--base-url", opts.baseUrl);
          const authUrl = httpUrl("--auth-url", opts.authUrl);
          // A profile file is checked before the target is contacted; the demo profile is made there.
          const file = opts.profile !== undefined && opts.profile !== "demo" ? await targetProfile(opts, baseUrl) : undefined;
          // The browser driver's playwright-core is an optional peer: say so before anything is contacted.
          if (file?.authorize?.driver === "browser") resolvePeer("playwright-core", "the browser authorize driver (profile authorize.driver: browser)");
          const { checkReachable } = await import("../../conformance/run/preflight.ts");
          const unreachable = await checkReachable([baseUrl, authUrl]);
          if (unreachable.length > 0) {
            const where = unreachable.map((u) => `${u.url} (${u.reason})`).join("; ");
            throw new UsageError(opts.profile === undefined ? `--profile is required (or use --reference), and the target does not answer: ${where}` : `the target does not answer: ${where}`);
          }
          const profile = file ?? (await targetProfile(opts, baseUrl));
          // A decision split from one the profile switches off is off too unless the profile names it: say so.
          const { Decisions } = await import("../../conformance/core/decisions.ts");
          for (const [child, parent] of Object.entries(new Decisions(profile.decisions).inherited(profile.decisions ?? {}))) {
            process.stderr.write(`${child}: off, as the profile switches off ${parent}, which it was split from (name ${child} in the profile's decisions to check it apart)\n`);
          }
          const [{ runSuite }, { readBudget }] = await Promise.all([import("../../conformance/run/runner.ts"), import("../../conformance/run/rate-budget.ts")]);
          // A spent rate limit would fail cases one by one: the cases that would go past what is
          // left are skipped with the reason, said once here, and the rest run.
          const budget = await readBudget({ baseUrl, token: profile.users[0]?.token });
          const { inert } = await import("../../conformance/core/inert-text.ts");
          summary = await runSuite({ ...suite, baseUrl, authUrl, profile, budget, onBudget: (line) => process.stderr.write(`${inert(line)}\n`) });
        }

        if (consoleReporter) consoleReporter.report(summary);
        else process.stdout.write(`${(await import("../../conformance/report/format.ts")).summaryLine(summary)}\n`);
        for (const path of writeReports(summary, reporters, opts.out)) process.stdout.write(`Wrote ${path}\n`);
        if (opts.suggestDecisions) {
          const { suggestDecisions } = await import("../../conformance/run/suggest.ts");
          // Its evidence lines quote the target's messages: made inert for the terminal.
          const { inert } = await import("../../conformance/core/inert-text.ts");
          process.stdout.write(`\n${inert(summary.suggestedDecisions?.yaml ?? suggestDecisions(summary))}`);
        }
        const { failedLevel } = await import("../../conformance/run/rule-results.ts");
        const level = failedLevel(summary);
        setExit(level === "seed" ? EXIT_CHECK_FAILED : level === "contract" ? EXIT_DECISIONS_FAILED : EXIT_OK);
      } catch (error) {
        removeMade(made);
        throw error;
      } finally {
        process.removeListener("SIGINT", onSignal);
        process.removeListener("SIGTERM", onSignal);
      }
    });
