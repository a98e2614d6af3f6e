/**
 * `service-contract simulate <event>`: makes something happen on the reference server's data —
 * a push, an issue change, a fork… (reference/domain; `--list` shows the events) — outside the
 * contract, since the contract's feeds are read-only. Prints one JSON line per record created:
 * activity events as served (string `id`, `type`), then issue events as served without `issue`
 * (integer `id`, `event`).
 *
 * Directly on the database (`--data-dir`, default .service-contract, or `--database-url`), or,
 * while `serve --simulate` holds a PGlite folder (one process at a time), through the server:
 * `--url API --admin-token T` posts to /_admin/simulate/:event. Exit 2 on usage errors: unknown
 * event, repository or actor, bad parameters.
 */
import { Command } from "commander";
import type { CommandFactory } from "../main.ts";
import { EXIT_OK, UsageError } from "../exit-codes.ts";
import { databaseUrlOption, flagOrEnv } from "../options.ts";

interface SimulateOptions {
  repo: string;
  actor: string;
  count: string;
  dataDir: string;
  databaseUrl?: string;
  seed: string;
  history: boolean;
  url?: string;
  adminToken?: string;
  list?: boolean;
}

function parseParams(pairs: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`parameters are key=value, got "${pair}"`);
    const key = pair.slice(0, eq);
    if (Object.hasOwn(params, key)) throw new UsageError(`parameter ${key} given twice`);
    params[key] = pair.slice(eq + 1);
  }
  return params;
}

function parseCount(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new UsageError(`--count must be 1..1000, got ${raw}`);
  return n;
}

async function viaServer(url: string, token: string, event: string, body: object): Promise<{ events: unknown[]; issue_events: unknown[] }> {
  let res: Response;
  try {
    res = await fetch(`${url.replace(/\/$/, "")}/_admin/simulate/${encodeURIComponent(event)}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-admin-token": token },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new UsageError(`cannot reach ${url}: ${(error as Error).message}`);
  }
  const json = (await res.json().catch(() => ({}))) as { message?: string; events?: unknown[]; issue_events?: unknown[] };
  if (res.status !== 201) throw new UsageError(`${url} answered ${res.status}: ${json.message ?? "no message"}`);
  return { events: json.events ?? [], issue_events: json.issue_events ?? [] };
}

export const simulateCommand: CommandFactory = (setExit) =>
  new Command("simulate")
    .description("Make something happen on the reference server's data (outside the contract): records activity and issue events.")
    .argument("[event]", "push, issues, issue_comment, create, delete, watch, fork, pull_request, … (--list)")
    .argument("[params...]", "key=value parameters of the event, e.g. action=closed number=1")
    .option("--repo <owner/name>", "repository", "octocat/hello-world")
    .option("--actor <login>", "user who acts", "octocat")
    .option("--count <n>", "repeat the action N times (each in its own transaction)", "1")
    .option("--data-dir <dir>", "embedded database folder (PGlite), as for serve", ".service-contract")
    .option("--database-url <url>", "use PostgreSQL instead (default: $DATABASE_URL)")
    .option("--seed <demo|none|FILE>", "data to load first if the database is empty, as for serve", "demo")
    .option("--no-history", "with --seed demo on a new database: skip recording the demo's months of activity, as for serve")
    .option("--url <api>", "go through a running `serve --simulate` instead of opening the database")
    .option("--admin-token <token>", "the admin token of that server (default: $SERVICE_CONTRACT_ADMIN_TOKEN)")
    .option("--list", "list the events and their parameters")
    .addHelpText(
      "after",
      "\nOn a new database it first loads --seed, as serve does (with the demo, six months of history: about 10 s).\nPGlite allows one process per data folder: while `serve` runs on it, use --url and --admin-token.\nExamples:\n  service-contract simulate push --repo octocat/hello-world commits=3\n  service-contract simulate issues action=closed number=1 --actor hubot\n  service-contract simulate push --url http://127.0.0.1:3000 --admin-token $TOKEN",
    )
    .action(async (event: string | undefined, pairs: string[], opts: SimulateOptions) => {
      const { ACTIONS, ACTION_NAMES, DomainError, runAction } = await import("../../reference/domain/index.ts");
      if (opts.list) {
        for (const name of ACTION_NAMES) process.stdout.write(`${name.padEnd(28)} ${ACTIONS[name]!.summary}\n`);
        return setExit(EXIT_OK);
      }
      if (!event) throw new UsageError("which event? (simulate --list)");
      if (!ACTION_NAMES.includes(event)) throw new UsageError(`unknown event "${event}"; one of: ${ACTION_NAMES.join(", ")}`);
      const params = parseParams(pairs);
      const count = parseCount(opts.count);
      const print = (records: unknown[]) => {
        for (const r of records) process.stdout.write(JSON.stringify(r) + "\n");
      };
      if (opts.url) {
        const token = opts.adminToken ?? process.env.SERVICE_CONTRACT_ADMIN_TOKEN;
        if (!token) throw new UsageError("--url needs --admin-token (or $SERVICE_CONTRACT_ADMIN_TOKEN)");
        // The admin endpoint takes at most MAX_COUNT at a time: a larger --count goes in batches.
        const { MAX_COUNT } = await import("../../reference/http/admin.ts");
        for (let done = 0; done < count; done += MAX_COUNT) {
          const result = await viaServer(opts.url, token, event, { repo: opts.repo, actor: opts.actor, count: Math.min(MAX_COUNT, count - done), params });
          print(result.events);
          print(result.issue_events);
        }
        return setExit(EXIT_OK);
      }
      // Every option and environment variable is checked before a database is opened or made:
      // a typo costs no database start and leaves no data folder behind.
      const databaseUrl = databaseUrlOption(opts.databaseUrl);
      const { checkSeedChoice, databaseUsageError } = await import("../database-errors.ts");
      checkSeedChoice(opts.seed);
      // Without a running server the URLs in bodies are the public ones `serve` would use
      // (its environment variables), else those it listens on by default.
      const { publicOrigin, PublicUrlError } = await import("../../reference/public-url.ts");
      const env = process.env;
      const urls = {
        api: flagOrEnv("--public-url", undefined, "SERVICE_CONTRACT_PUBLIC_URL", publicOrigin, PublicUrlError) ?? (env.SERVICE_CONTRACT_API_URL || "http://127.0.0.1:3000"),
        auth: flagOrEnv("--public-auth-url", undefined, "SERVICE_CONTRACT_PUBLIC_AUTH_URL", publicOrigin, PublicUrlError) ?? (env.SERVICE_CONTRACT_AUTH_URL || "http://127.0.0.1:3001"),
      };
      const { openDatabase } = await import("../../reference/db/database.ts");
      const { migrate } = await import("../../reference/db/migrate.ts");
      const { seedDatabase } = await import("../../reference/seed/load.ts");
      const { DEMO_HISTORY_COUNT, seedHistory } = await import("../../reference/seed/history.ts");
      const asUsage = (error: unknown): never => {
        throw databaseUsageError(error, "simulate") ?? error;
      };
      const db = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: opts.dataDir }).catch(asUsage);
      try {
        await migrate(db);
        await seedDatabase(db, opts.seed).catch(asUsage);
        // The demo's months of history, exactly as a first `serve` records them (it does nothing once there are events).
        if (opts.seed === "demo" && opts.history) await seedHistory(db, { now: new Date(), urls, count: DEMO_HISTORY_COUNT });
        // Webhook deliveries are enqueued with each action, as the server does; the server sends them.
        const { startDeliveries } = await import("../../reference/deliveries/engine.ts");
        const deliveries = await startDeliveries(db, urls, { worker: false });
        try {
          for (let i = 0; i < count; i++) {
            const result = await runAction({ db, urls, now: () => new Date(), listeners: [deliveries.queue.listener] }, event, { repo: opts.repo, actor: opts.actor, params }).catch((error: unknown) => {
              throw error instanceof DomainError ? new UsageError(error.message) : error;
            });
            print(result.events);
            print(result.issueEvents);
          }
        } finally {
          await deliveries.stop();
        }
      } finally {
        await db.close();
      }
      setExit(EXIT_OK);
    });
