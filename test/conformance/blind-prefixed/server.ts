// server.ts — entry point: start() builds the API (fastify, under /api/v3) and the web host on two ports,
// seeds the fixture, and returns the handles a test needs.
import Fastify from "fastify";
import { addressSpent, installPipeline, LIMITS } from "./api-auth.ts";
import { DEFAULT_RETRY_DELAYS_MS, Deliveries } from "./deliveries.ts";
import { type Ctx, createStore, fullName, orgById, repoById, userById } from "./model.ts";
import { authorizationRoutes } from "./routes-authorizations.ts";
import { feedRoutes } from "./routes-feeds.ts";
import { hookRoutes } from "./routes-hooks.ts";
import { issueEventRoutes } from "./routes-issue-events.ts";
import { miscRoutes } from "./routes-misc.ts";
import { triggerRoutes } from "./routes-trigger.ts";
import { type Fixture, seed } from "./seed.ts";
import { sendProblem } from "./problem.ts";
import { randomHex } from "./util.ts";
import { buildWeb } from "./web.ts";

export const API_PREFIX = "/api/v3";

export interface BlindServer {
  api: string;
  auth: string;
  adminKey: string;
  fixture: Fixture;
  /** Per client address: requests counted against it (anonymous + bad credentials). */
  anonymousSpent(): number;
  /** What exists now beyond the seed data: hooks, tokens/authorizations, grants. */
  leftovers(): { hooks: string[]; tokens: string[]; grants: string[] };
  close(): Promise<void>;
}

export async function start(options: { retryDelaysMs?: number[] } = {}): Promise<BlindServer> {
  const store = createStore();
  const deliveries = new Deliveries(options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS, (h) => h.active && store.hooks.includes(h));
  const ctx: Ctx = { store, api: "", web: "", adminKey: randomHex(16), deliver: deliveries.send };

  const api = Fastify({
    logger: false,
    frameworkErrors: (err, _req, reply) => { void sendProblem(reply, 400, err.message); },
  });
  installPipeline(ctx, api);
  const defaults = { repo: "octocat/hello-world", org: "acme", actor: "octocat", other: "hubot" };
  await api.register(async (v3) => {
    feedRoutes(ctx, v3);
    issueEventRoutes(ctx, v3);
    hookRoutes(ctx, v3);
    authorizationRoutes(ctx, v3);
    miscRoutes(ctx, v3);
    triggerRoutes(ctx, v3, defaults);
  }, { prefix: API_PREFIX });
  const web = buildWeb(ctx);

  const apiOrigin = await api.listen({ port: 0, host: "127.0.0.1" });
  const webOrigin = await web.listen({ port: 0, host: "127.0.0.1" });
  ctx.api = `${apiOrigin}${API_PREFIX}`;
  ctx.web = webOrigin;
  const callbackPort = 40000 + Math.floor(Math.random() * 20000);
  const fixture = seed(ctx, callbackPort);
  fixture.limits = { ...LIMITS };

  return {
    api: ctx.api, auth: ctx.web, adminKey: ctx.adminKey, fixture,
    anonymousSpent: () => addressSpent(ctx),
    leftovers: () => ({
      hooks: store.hooks.filter((h) => !h.seed).map((h) => {
        const repo = h.kind === "repo" ? repoById(store, h.targetId) : undefined;
        const where = repo ? fullName(repo) : orgById(store, h.targetId)?.login ?? "?";
        return `${where}/hooks/${h.id} (${h.name})`;
      }),
      tokens: store.authz.filter((a) => !a.seed).map((a) => `authorization ${a.id} of ${userById(store, a.userId)?.login ?? "?"}${a.appId == null ? ` (${a.note ?? "personal"})` : ` for app ${a.appId}`}`),
      grants: store.grants.filter((g) => !g.seed).map((g) => `grant ${g.id} of ${userById(store, g.userId)?.login ?? "?"} for app ${g.appId}`),
    }),
    close: async () => {
      deliveries.close();
      await Promise.all([api.close(), web.close()]);
    },
  };
}
