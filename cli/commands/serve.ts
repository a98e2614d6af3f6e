/**
 * `service-contract serve`: the reference server on its embedded database (PGlite in
 * --data-dir) or on PostgreSQL (--database-url / DATABASE_URL). Prints one JSON line with both
 * URLs when ready — scripts wait for it — then a short guide on stderr; SIGINT/SIGTERM (or, when
 * npm launched it, npm going away: cli/launcher.ts) close the listeners and the database cleanly.
 */
import { randomBytes } from "node:crypto";
import { Command } from "commander";
import type { CommandFactory } from "../main.ts";
import { EXIT_OK, UsageError } from "../exit-codes.ts";
import { databaseUrlOption, flagOrEnv, parsePort } from "../options.ts";
import { checkCanListen } from "../free-port.ts";
import { watchLauncher } from "../launcher.ts";
import { firstMissing, removeMade } from "../made-folders.ts";

export const PUBLIC_URL_VARIABLE = "SERVICE_CONTRACT_PUBLIC_URL";
export const PUBLIC_AUTH_URL_VARIABLE = "SERVICE_CONTRACT_PUBLIC_AUTH_URL";

interface ServeOptions {
  port: string;
  authPort: string;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  seed: string;
  validateResponses?: boolean;
  quiet?: boolean;
  simulate?: boolean;
  history: boolean;
  publicUrl?: string;
  publicAuthUrl?: string;
  trustProxy?: string;
  hookEgress?: string;
  rateLimit?: string;
  failedLogins?: string;
}

/** `--rate-limit AUTHENTICATED,ANONYMOUS` (hourly), else $SERVICE_CONTRACT_RATE_LIMIT; undefined: 5000,60. */
export function parseRateLimit(source: string, value: string): { authenticated: number; anonymous: number } {
  const m = /^\s*(\d{1,9})\s*,\s*(\d{1,9})\s*$/.exec(value);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new RateLimitError(`${source} takes two hourly limits, with a token and without one, as AUTHENTICATED,ANONYMOUS (e.g. 5000,60), got ${JSON.stringify(value)}`);
  return { authenticated: Number(m[1]), anonymous: Number(m[2]) };
}

class RateLimitError extends Error {}

/** `--failed-logins N`, else $SERVICE_CONTRACT_FAILED_LOGINS; undefined: 10 an hour per login. */
export function parseFailedLogins(source: string, value: string): number {
  const m = /^\s*(\d{1,9})\s*$/.exec(value);
  if (!m || Number(m[1]) < 1) throw new RateLimitError(`${source} takes the failed logins allowed per login and hour, a whole number from 1 (e.g. 10), got ${JSON.stringify(value)}`);
  return Number(m[1]);
}

/** `--public-url`/`--public-auth-url`, else their environment variables; undefined: the listening address. */
async function publicUrls(opts: ServeOptions): Promise<{ api?: string; auth?: string }> {
  const { publicOrigin, PublicUrlError } = await import("../../reference/public-url.ts");
  const api = flagOrEnv("--public-url", opts.publicUrl, PUBLIC_URL_VARIABLE, publicOrigin, PublicUrlError);
  const auth = flagOrEnv("--public-auth-url", opts.publicAuthUrl, PUBLIC_AUTH_URL_VARIABLE, publicOrigin, PublicUrlError);
  return { ...(api ? { api } : {}), ...(auth ? { auth } : {}) };
}

/** `--trust-proxy`, else $SERVICE_CONTRACT_TRUST_PROXY; undefined: X-Forwarded-For is ignored. */
async function trustedProxies(given: string | undefined): Promise<string[] | undefined> {
  const { parseTrustedProxies, TrustedProxyError } = await import("../../reference/http/trusted-proxies.ts");
  return flagOrEnv("--trust-proxy", given, "SERVICE_CONTRACT_TRUST_PROXY", parseTrustedProxies, TrustedProxyError);
}


function guide(urls: { api: string; auth: string }, seeded: string): string {
  if (seeded !== "demo") return `API ${urls.api}  ·  OAuth ${urls.auth}  ·  docs ${urls.api}/docs\n`;
  return [
    `API      ${urls.api}        (reference: ${urls.api}/docs)`,
    `OAuth    ${urls.auth}`,
    "",
    "Try the OAuth web flow in a browser (demo data):",
    `  1. open ${urls.auth}/login/oauth/authorize?client_id=demo-client-id-0001&scope=repo,user&state=xyz`,
    "  2. sign in as octocat / octocat-demo-password, then Authorize",
    "  3. you land on http://127.0.0.1:8080/callback?code=…&state=xyz; exchange the code:",
    `     curl -s -H 'Accept: application/json' -d client_id=demo-client-id-0001 \\`,
    `       -d client_secret=demo-client-secret-0001-keep-it-private -d code=CODE ${urls.auth}/login/oauth/access_token`,
    `  4. curl -H 'Authorization: token TOKEN' ${urls.api}/users/octocat/events`,
    "Demo users: octocat, hubot, defunkt (password <login>-demo-password); monalisa has two-factor",
    "(TOTP secret JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP). Applications: demo-client-id-0001, and",
    "demo-client-id-0002 (suspended). All of it: reference/seed/README.md.",
    "",
  ].join("\n");
}

export const serveCommand: CommandFactory = (setExit) =>
  new Command("serve")
    .description("Run the reference server: the API host and the OAuth web host on one database.")
    .option("--port <n>", "API host port (0 picks a free one)", "3000")
    .option("--auth-port <n>", "web host port for the OAuth pages and token exchange (0 picks a free one)", "3001")
    .option("--host <address>", "address to listen on", "127.0.0.1")
    .option("--data-dir <dir>", "embedded database folder (PGlite)", ".service-contract")
    .option("--database-url <url>", "use PostgreSQL instead (default: $DATABASE_URL)")
    .option("--seed <demo|none|FILE>", "data to load into an empty database", "demo")
    .option("--validate-responses", "check every response against the contract (a violation becomes a 500)")
    .option("--simulate", "enable the admin endpoint POST /_admin/simulate/:event (token: $SERVICE_CONTRACT_ADMIN_TOKEN, else a random one printed on stderr)")
    .option("--no-history", "with --seed demo: skip recording the demo's months of activity")
    .option("--public-url <origin>", "the API host's origin as clients reach it (a load balancer's), written into every absolute URL (default: $SERVICE_CONTRACT_PUBLIC_URL, else where it listens)")
    .option("--public-auth-url <origin>", "the same for the OAuth web host (default: $SERVICE_CONTRACT_PUBLIC_AUTH_URL, else where it listens)")
    .option("--trust-proxy <addresses>", "proxies whose X-Forwarded-For names the client, comma-separated IPs, CIDRs or loopback (default: $SERVICE_CONTRACT_TRUST_PROXY, else none)")
    .option("--hook-egress <local|public>", "where hooks may send: local (default: also loopback and private addresses) or public (public addresses only); link-local and cloud metadata never (default: $SERVICE_CONTRACT_HOOK_EGRESS, else local)")
    .option("--rate-limit <authenticated,anonymous>", "hourly rate limits with a token and without one (default: $SERVICE_CONTRACT_RATE_LIMIT, else 5000,60); raise them to run the conformance suite again within the hour")
    .option("--failed-logins <n>", "failed logins (wrong password or two-factor code) allowed per login and hour before it is locked (default: $SERVICE_CONTRACT_FAILED_LOGINS, else 10); the suite's two-factor case spends up to four a run, so raise it to run that case more than twice an hour")
    .option("--quiet", "print only the ready line")
    .addHelpText(
      "after",
      "\nPrints {\"api\":URL,\"auth\":URL} on stdout when ready (the public URLs; with --public-url or\n--public-auth-url also \"listening\":{\"api\":URL,\"auth\":URL}, where this instance listens).\nWebhook deliveries: retries after ~30 s, 1, 2, 4, 8, 16, 32 min (8 attempts); tune with\nSERVICE_CONTRACT_DELIVERIES='{\"baseDelayMs\":50,\"attempts\":5,\"timeoutMs\":1000,\"expireInSeconds\":3}' (see reference/deliveries/options.ts).\nExamples:\n  service-contract serve\n  service-contract serve --port 0 --auth-port 0 --seed none --data-dir /tmp/sc\n  service-contract serve --database-url postgres://localhost/service",
    )
    .action(async (opts: ServeOptions) => {
      // Every option and environment variable is checked before the server's modules load and
      // before a database is opened or made: a typo costs a second, not a database start, and
      // leaves no data folder behind. The cheap checks first, then the seed file, then the ports.
      const databaseUrl = databaseUrlOption(opts.databaseUrl);
      const port = parsePort("--port", opts.port);
      const authPort = parsePort("--auth-port", opts.authPort);
      const advertised = await publicUrls(opts);
      const trustProxy = await trustedProxies(opts.trustProxy);
      const adminToken = opts.simulate ? (process.env.SERVICE_CONTRACT_ADMIN_TOKEN ?? randomBytes(20).toString("hex")) : undefined;
      if (adminToken !== undefined && adminToken.length < 16) throw new UsageError("SERVICE_CONTRACT_ADMIN_TOKEN must be at least 16 characters");
      const { optionsFromEnv } = await import("../../reference/deliveries/options.ts");
      let deliveries;
      try {
        deliveries = optionsFromEnv();
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      const { DEFAULT_EGRESS, EGRESS_ENV, parseEgressPolicy } = await import("../../reference/hooks/egress.ts");
      const hookEgress = flagOrEnv("--hook-egress", opts.hookEgress, EGRESS_ENV, (_source, value) => parseEgressPolicy(value), Error) ?? DEFAULT_EGRESS;
      const hourly = flagOrEnv("--rate-limit", opts.rateLimit, "SERVICE_CONTRACT_RATE_LIMIT", parseRateLimit, RateLimitError);
      const failedLogins = flagOrEnv("--failed-logins", opts.failedLogins, "SERVICE_CONTRACT_FAILED_LOGINS", parseFailedLogins, RateLimitError);
      const rateLimits = hourly || failedLogins ? { ...hourly, ...(failedLogins ? { failedLogins } : {}) } : undefined;
      const { checkSeedChoice, databaseUsageError } = await import("../database-errors.ts");
      checkSeedChoice(opts.seed);
      await checkCanListen(opts.host, port, "--port");
      await checkCanListen(opts.host, authPort, "--auth-port");
      const { startServer } = await import("../../reference/server.ts");
      const { DEMO_HISTORY_COUNT } = await import("../../reference/seed/history.ts");
      // A data folder this start makes is removed again if the start fails: a failed command leaves nothing behind.
      const madeDataDir = databaseUrl ? undefined : firstMissing(opts.dataDir);
      let server;
      try {
        server = await startServer({
          host: opts.host,
          port,
          authPort,
          dataDir: databaseUrl ? undefined : opts.dataDir,
          databaseUrl,
          seed: opts.seed,
          validateResponses: opts.validateResponses,
          // Six months of events on a first start; simulate records the same when it comes first.
          history: opts.history && { count: DEMO_HISTORY_COUNT },
          adminToken,
          deliveries,
          publicUrls: advertised,
          ...(trustProxy ? { trustProxy } : {}),
          hookEgress,
          ...(rateLimits ? { rateLimits } : {}),
        });
      } catch (error) {
        removeMade(madeDataDir);
        const usage = databaseUsageError(error, "serve");
        if (usage) throw usage;
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL") throw new UsageError(`cannot listen: ${(error as Error).message}`);
        throw error;
      }
      // On a shared PostgreSQL the sealing key of secrets at rest belongs outside the database (README, serve).
      if (databaseUrl && !process.env.SERVICE_CONTRACT_SECRET_KEY) {
        process.stderr.write("warning: SERVICE_CONTRACT_SECRET_KEY is not set: hook secrets and TOTP seeds are sealed with a key stored in the same database\n");
      }
      // The handlers go in before the ready line: a supervisor may send SIGTERM the moment it reads
      // it, and a signal with no handler yet kills the process without closing the database.
      // Also when launched through npm and npm is gone (cli/launcher.ts): npm's SIGTERM stops here.
      let cancelWatch = (): void => {};
      const stopped = new Promise<void>((resolve) => {
        const stop = (): void => resolve();
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
        cancelWatch = watchLauncher(stop);
      });
      const ready = { api: server.urls.api, auth: server.urls.auth };
      const behindProxy = advertised.api !== undefined || advertised.auth !== undefined;
      process.stdout.write(JSON.stringify(behindProxy ? { ...ready, listening: server.listening } : ready) + "\n");
      if (!opts.quiet) process.stderr.write(guide(server.urls, opts.seed));
      if (adminToken !== undefined && !process.env.SERVICE_CONTRACT_ADMIN_TOKEN) {
        process.stderr.write(`Admin token (for simulate --url ${server.urls.api} --admin-token …): ${adminToken}\n`);
      }
      await stopped;
      cancelWatch();
      await server.close();
      setExit(EXIT_OK);
    });
