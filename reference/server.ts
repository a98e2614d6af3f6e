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
import type { Context, Urls } from "./context.ts";
import { installApiHooks } from "./http/api-hooks.ts";
import { installFeedShortcut } from "./http/feed-shortcut.ts";
import { pollLane, type PollLane } from "./http/poll-lane.ts";
import { serverWithLane } from "./http/lane-server.ts";
import { ViewerCache } from "./http/viewer-cache.ts";
import { feedServing } from "./handlers/feeds.ts";
import { registerDocs } from "./http/docs.ts";
import { DOCUMENTATION_URL } from "./http/errors.ts";
import { apiFrameworkErrors, clientErrors, webFrameworkErrors } from "./http/framework-errors.ts";
import { loadOperationPolicies } from "./http/operation-policy.ts";
import { databaseRateLimiter, memoryRateLimiter } from "./http/rate-limit.ts";
import { apiHandlers } from "./handlers/index.ts";
import { SUPPLIED_HEADERS } from "./handlers/supplied.ts";
import { oauthHandlers, oauthInvalidRequest, registerOAuthPages } from "./oauth/index.ts";
import { seedDatabase, type SeedChoice } from "./seed/load.ts";
import { seedHistory } from "./seed/history.ts";
import { registerAdmin } from "./http/admin.ts";
import { startDeliveries } from "./deliveries/engine.ts";
import type { DeliveryOptions } from "./deliveries/options.ts";
import { faultSet, type Fault } from "./faults.ts";
import { pastPageRequests } from "./http/past-page-fault.ts";
import { refuseUnstorableText } from "./http/text-guard.ts";

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
  /** Public URLs to advertise when behind a proxy; default: the listening addresses. */
  publicUrls?: Partial<Urls>;
  onResponseValidationError?: (failure: unknown) => void;
  now?: () => Date;
  /** With the demo seed: also record a months-long history of activity (first start only). */
  history?: boolean | { count: number };
  /** Enables the admin endpoint `POST /_admin/simulate/:event`, guarded by this token. */
  adminToken?: string;
  /** The webhook delivery engine (reference/deliveries): retry schedule, time-outs; `enabled: false` turns it off. */
  deliveries?: DeliveryOptions;
  /** Deliberate defects, for proving the conformance suite catches them (faults.ts). Never for real use. */
  faults?: readonly Fault[];
}

export interface RunningServer {
  urls: Urls;
  db: Database;
  api: FastifyInstance;
  auth: FastifyInstance;
  /** The API host's poll lane; its `answered` count shows how many polls never reached Fastify. */
  lane: PollLane;
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
  const faults = faultSet(options.faults);
  const db = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir });
  try {
    await migrate(db);
    if (options.seed && options.seed !== "none") await seedDatabase(db, options.seed);
  } catch (error) {
    await db.close();
    throw error;
  }

  const urls: Urls = { api: "", auth: "" };
  const ctx: Context = { db, urls, now: options.now ?? (() => new Date()), feeds: feedServing(), ...(faults ? { faults } : {}) };
  const deliveries =
    options.deliveries?.enabled === false
      ? undefined
      : await startDeliveries(db, urls, { ...options.deliveries, databaseUrl: options.databaseUrl, ...(faults ? { faults } : {}) }).catch(async (error: unknown) => {
          await db.close();
          throw error;
        });
  if (deliveries) ctx.pings = deliveries.queue;
  const common = {
    validateResponses: options.validateResponses ?? false,
    documentationUrl: DOCUMENTATION_URL,
    onResponseValidationError: options.onResponseValidationError,
  };

  const limiter = db.kind === "postgres" ? databaseRateLimiter(db) : memoryRateLimiter();
  const viewers = new ViewerCache(db);
  const lane = pollLane({ db, serving: ctx.feeds!, viewers, limiter });
  const api = Fastify({ ...FASTIFY_OPTIONS, frameworkErrors: apiFrameworkErrors(limiter), clientErrorHandler: clientErrors(limiter), serverFactory: serverWithLane(lane) });
  installApiHooks(api, { db, policies: loadOperationPolicies(), limiter, viewers });
  installFeedShortcut(api, db, ctx.feeds!);
  const handlers = refuseUnstorableText(apiHandlers(ctx));
  const pastPage = faults?.has("pagination-past-300") ? { invalidRequest: pastPageRequests(handlers) } : {};
  registerRoutes(api, handlers, { host: "api", suppliedHeaders: SUPPLIED_HEADERS, ...common, ...pastPage });
  // The rendered reference of the contract, outside the contract itself (no rate limit applies).
  await registerDocs(api, {});
  if (options.adminToken !== undefined) registerAdmin(api, ctx, { token: options.adminToken, listeners: deliveries ? [deliveries.queue.listener] : [] });

  const auth = Fastify({ ...FASTIFY_OPTIONS, frameworkErrors: webFrameworkErrors, clientErrorHandler: clientErrors() });
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
  urls.api = options.publicUrls?.api ?? address(api);
  urls.auth = options.publicUrls?.auth ?? address(auth);
  // Events are snapshots holding absolute URLs, so the history is recorded once the URLs are known.
  if (options.history && options.seed === "demo") {
    const count = typeof options.history === "object" ? options.history.count : undefined;
    await seedHistory(db, { now: ctx.now(), urls, ...(count ? { count } : {}) });
  }

  let closing: Promise<void> | undefined;
  return {
    urls,
    db,
    api,
    auth,
    lane,
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
