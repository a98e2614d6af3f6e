/**
 * The reference server: two Fastify listeners — the API host and the web host (OAuth pages and
 * token exchange) — on one database, built from the generated server stubs. Every contract
 * route is registered by `registerRoutes` from generated/server; only the HTML form posts of the
 * OAuth pages, which the contract leaves to implementations, are registered here by hand.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { registerRoutes } from "../generated/server/index.ts";
import { openDatabase, type Database } from "./db/database.ts";
import { migrate } from "./db/migrate.ts";
import { describeDataDirLock } from "./db/data-lock.ts";
import type { Context, Urls } from "./context.ts";
import { installApiHooks } from "./http/api-hooks.ts";
import { installFeedShortcut } from "./http/feed-shortcut.ts";
import { pollLane, type PollLane } from "./http/poll-lane.ts";
import { serverWithLane } from "./http/lane-server.ts";
import { ViewerCache } from "./http/viewer-cache.ts";
import { feedServing } from "./handlers/feeds.ts";
import { registerDocs } from "./http/docs.ts";
import { installDocsCors } from "./oauth/docs-cors.ts";
import { DOCUMENTATION_URL } from "./http/errors.ts";
import { apiFrameworkErrors, clientErrors, webFrameworkErrors } from "./http/framework-errors.ts";
import { loadOperationPolicies } from "./http/operation-policy.ts";
import { DEFAULT_LIMITS, databaseRateLimiter, memoryRateLimiter, type RateLimiter, type RateLimits } from "./http/rate-limit.ts";
import { apiHandlers } from "./handlers/index.ts";
import { SUPPLIED_HEADERS } from "./handlers/supplied.ts";
import { oauthHandlers, oauthInvalidRequest, registerOAuthPages } from "./oauth/index.ts";
import { seedDatabase, type SeedChoice } from "./seed/load.ts";
import { seedHistory } from "./seed/history.ts";
import { registerAdmin } from "./http/admin.ts";
import { startDeliveries } from "./deliveries/engine.ts";
import type { DeliveryOptions } from "./deliveries/options.ts";
import { refuseUnstorableText } from "./http/text-guard.ts";
import { publicOrigin } from "./public-url.ts";
import type { EgressPolicy } from "./hooks/egress.ts";
import { sealStoredTotpSeeds } from "./auth/totp-seeds.ts";

export interface ServerOptions {
  host?: string;
  port?: number;
  authPort?: number;
  /** PGlite data folder; undefined keeps PGlite in memory. Ignored with databaseUrl. */
  dataDir?: string;
  databaseUrl?: string;
  seed?: SeedChoice;
  /** Check every handler result against the contract (on in tests). */
  validateResponses?: boolean;
  /**
   * The origins clients use when the server sits behind a proxy or load balancer (public-url.ts);
   * every absolute URL it writes names them. Default: the listening addresses.
   */
  publicUrls?: Partial<Urls>;
  /** Proxies whose X-Forwarded-For names the client (http/trusted-proxies.ts); default none. */
  trustProxy?: readonly string[];
  onResponseValidationError?: (failure: unknown) => void;
  now?: () => Date;
  /** With the demo seed: also record a months-long history of activity (first start only). */
  history?: boolean | { count: number };
  /** Enables the admin endpoint `POST /_admin/simulate/:event`, guarded by this token. */
  adminToken?: string;
  /** The webhook delivery engine (reference/deliveries): retry schedule, time-outs; `enabled: false` turns it off. */
  deliveries?: DeliveryOptions;
  hookEgress?: EgressPolicy;
  /** The hourly rate limits (default 5000 with a token, 60 without: spec/DECISIONS.md D-RATE-RESET). */
  rateLimits?: Partial<RateLimits>;
}

export interface RunningServer {
  /** The public URLs (ServerOptions.publicUrls, else the listening addresses). */
  urls: Urls;
  /** Where the two hosts listen, whatever they advertise. */
  listening: Urls;
  db: Database;
  api: FastifyInstance;
  auth: FastifyInstance;
  /** The API host's poll lane; its `answered` count shows how many polls never reached Fastify. */
  lane: PollLane;
  /** The rate counters (and failed-login counts) of both hosts; tests set a caller's state through it. */
  limiter: RateLimiter;
  close(): Promise<void>;
}

function address(app: FastifyInstance): string {
  const a = app.server.address();
  if (!a || typeof a === "string") throw new Error("server is not listening on TCP");
  const host = a.family === "IPv6" ? `[${a.address}]` : a.address;
  return `http://${host}:${a.port}`;
}

const FASTIFY_OPTIONS: FastifyServerOptions = {
  logger: false,
  // Tokens and fingerprints in paths can be long.
  routerOptions: { maxParamLength: 2048 },
};

/** How long in-flight requests get to finish at shutdown before their connections are cut. */
const SHUTDOWN_GRACE_MS = 2000;

/**
 * Stop accepting, let in-flight requests finish, then cut what is left: a client holding a
 * keep-alive connection with an unread response must not keep the process alive forever.
 */
async function closeGracefully(app: FastifyInstance): Promise<void> {
  const timer = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  // Refused before anything is opened: a bad URL would otherwise be written into every answer.
  const publicApi = options.publicUrls?.api === undefined ? undefined : publicOrigin("the public API URL", options.publicUrls.api);
  const publicAuth = options.publicUrls?.auth === undefined ? undefined : publicOrigin("the public web URL", options.publicUrls.auth);
  const db = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir });
  try {
    await migrate(db);
    if (options.seed && options.seed !== "none") await seedDatabase(db, options.seed);
    // The data step of sealing TOTP seeds: rows stored in plain text before it (auth/totp-seeds.ts).
    await sealStoredTotpSeeds(db);
  } catch (error) {
    await db.close();
    throw error;
  }

  const urls: Urls = { api: "", auth: "" };
  const ctx: Context = { db, urls, now: options.now ?? (() => new Date()), feeds: feedServing(), ...(options.hookEgress ? { hookEgress: options.hookEgress } : {}) };
  const deliveries =
    options.deliveries?.enabled === false
      ? undefined
      : await startDeliveries(db, urls, { ...options.deliveries, databaseUrl: options.databaseUrl, ...(options.hookEgress ? { hookEgress: options.hookEgress } : {}) }).catch(async (error: unknown) => {
          await db.close();
          throw error;
        });
  if (deliveries) ctx.pings = deliveries.queue;
  const common = {
    validateResponses: options.validateResponses ?? false,
    documentationUrl: DOCUMENTATION_URL,
    onResponseValidationError: options.onResponseValidationError,
  };

  const limits = { ...DEFAULT_LIMITS, ...options.rateLimits };
  const limiter = db.kind === "postgres" ? databaseRateLimiter(db, limits) : memoryRateLimiter(Date.now, limits);
  ctx.limiter = limiter;
  const viewers = new ViewerCache(db);
  const trusted = options.trustProxy && options.trustProxy.length > 0 ? { trustProxy: [...options.trustProxy] } : {};
  const lane = pollLane({ db, serving: ctx.feeds!, viewers, limiter, forwarded: trusted.trustProxy !== undefined });
  const api = Fastify({ ...FASTIFY_OPTIONS, ...trusted, frameworkErrors: apiFrameworkErrors(limiter), clientErrorHandler: clientErrors(limiter), serverFactory: serverWithLane(lane) });
  installApiHooks(api, { db, policies: loadOperationPolicies(), limiter, viewers, now: () => ctx.now().getTime() });
  installFeedShortcut(api, db, ctx.feeds!);
  const handlers = refuseUnstorableText(apiHandlers(ctx));
  registerRoutes(api, handlers, { host: "api", suppliedHeaders: SUPPLIED_HEADERS, ...common });
  // The rendered reference of the contract, outside the contract itself (no rate limit applies).
  // Its "Try it out" calls the web host too (docsCsp; the web host's CORS, oauth/docs-cors.ts).
  await registerDocs(api, { authUrl: () => urls.auth });
  if (options.adminToken !== undefined) registerAdmin(api, ctx, { token: options.adminToken, listeners: deliveries ? [deliveries.queue.listener] : [] });

  // Parser refusals on the web host too: the error shape and `Connection: close` (http/framework-errors.ts).
  const auth = Fastify({ ...FASTIFY_OPTIONS, ...trusted, frameworkErrors: webFrameworkErrors, clientErrorHandler: clientErrors() });
  // The API reference's origins, known once the API host listens: the public URL and the listening one.
  let apiListening = "";
  installDocsCors(auth, () => [urls.api, apiListening].filter(Boolean).map((u) => new URL(u).origin));
  await registerOAuthPages(auth, ctx);
  registerRoutes(auth, oauthHandlers(ctx), { host: "auth", invalidRequest: oauthInvalidRequest(ctx), ...common });

  const host = options.host ?? "127.0.0.1";
  try {
    await api.listen({ host, port: options.port ?? 3000 });
    await auth.listen({ host, port: options.authPort ?? 3001 });
  } catch (error) {
    await api.close();
    await auth.close();
    await deliveries?.stop();
    await db.close();
    throw error;
  }
  const listening: Urls = { api: address(api), auth: address(auth) };
  apiListening = listening.api;
  urls.api = publicApi ?? listening.api;
  urls.auth = publicAuth ?? listening.auth;
  // A second process on this data folder is told where this server is (data-lock.ts).
  if (db.kind === "pglite" && options.dataDir) describeDataDirLock(options.dataDir, { api: urls.api, simulate: options.adminToken !== undefined });
  // Events are snapshots holding absolute URLs, so the history is recorded once the URLs are known.
  if (options.history && options.seed === "demo") {
    const count = typeof options.history === "object" ? options.history.count : undefined;
    await seedHistory(db, { now: ctx.now(), urls, ...(count ? { count } : {}) });
  }

  let closing: Promise<void> | undefined;
  return {
    urls,
    listening,
    db,
    api,
    auth,
    lane,
    limiter,
    close() {
      closing ??= (async () => {
        await Promise.allSettled([closeGracefully(api), closeGracefully(auth)]);
        await deliveries?.stop();
        await db.close();
      })();
      return closing;
    },
  };
}
