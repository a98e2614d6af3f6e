// server.ts — start(): builds the in-memory world, seeds it, and serves the API host and the web host on
// two loopback ports; returns the origins, the fixture, and test helpers (anonymousSpent, leftovers, close).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { apiListener, apiRouter, LIMITS } from "./api.ts";
import type { World } from "./ctx.ts";
import { Deliverer } from "./deliverer.ts";
import { FIELDS } from "./pages.ts";
import { RateLimiter } from "./ratelimit.ts";
import { seed } from "./seed.ts";
import { Store } from "./store.ts";
import { randomHex } from "./util.ts";
import { webListener, webRouter } from "./web.ts";

export interface BlindServer {
  api: string;
  auth: string;
  adminKey: string;
  fixture: {
    users: { login: string; password: string; token: string }[];
    twoFactor: { login: string; password: string; totpSecret: string };
    app: { clientId: string; clientSecret: string; callbackUrl: string };
    otherApp: { clientId: string; clientSecret: string };
    org: string;
    repos: { public: string; private: string };
    issue: number;
    serviceHook: { repo: string; name: string; config: Record<string, string> };
    pages: { usernameField: string; passwordField: string; approve: string; deny: string };
    limits: { authenticated: number; anonymous: number };
  };
  /** Requests counted against the client address (anonymous + bad credentials). */
  anonymousSpent(): number;
  /** What exists now beyond the seed data: hooks, tokens/authorizations, grants. */
  leftovers(): { hooks: string[]; tokens: string[]; grants: string[] };
  close(): Promise<void>;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

function shut(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function start(options: { retryDelaysMs?: number[] } = {}): Promise<BlindServer> {
  const store = new Store();
  const deliverer = new Deliverer(options.retryDelaysMs ?? [1000, 5000, 30000]);
  const fixture = seed(store);
  const w: World = {
    store, deliverer, limiter: new RateLimiter(), api: "", web: "", adminKey: randomHex(24),
    main: fixture.users[0]?.login ?? "alice", mainRepo: fixture.repos.public, org: fixture.org,
  };
  const apiServer = createServer(apiListener(w, apiRouter()));
  const webServer = createServer(webListener(w, webRouter()));
  w.api = await listen(apiServer);
  w.web = await listen(webServer);

  return {
    api: w.api,
    auth: w.web,
    adminKey: w.adminKey,
    fixture: {
      ...fixture,
      serviceHook: { repo: fixture.repos.public, name: "jenkins", config: { jenkins_hook_url: "http://127.0.0.1:47990/jenkins" } },
      pages: {
        usernameField: FIELDS.username, passwordField: FIELDS.password,
        approve: `${FIELDS.decision}=${FIELDS.approve}`, deny: `${FIELDS.decision}=${FIELDS.deny}`,
      },
      limits: { authenticated: LIMITS.authenticated, anonymous: LIMITS.anonymous },
    },
    anonymousSpent: () => w.limiter.anonymousSpent(),
    leftovers: () => ({
      hooks: [...store.hooks.values()].map((h) => `${w.api}/${h.scope === "repo" ? "repos" : "orgs"}/${h.target}/hooks/${h.id}`),
      tokens: [...store.auths.values()].filter((a) => !a.seed).map((a) => `${w.api}/authorizations/${a.id}`),
      grants: [...store.grants.values()].map((g) => `${w.api}/applications/grants/${g.id}`),
    }),
    close: async () => {
      deliverer.close();
      await Promise.all([shut(apiServer), shut(webServer)]);
    },
  };
}
