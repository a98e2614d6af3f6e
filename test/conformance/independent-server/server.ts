/**
 * A small server another team might have written from the seed alone (docs/seed, nothing of this
 * project's code: it imports no reference/, generated/, runtime/ or conformance/ module), for the
 * conformance suite to be tried against (issue 33, point 7). Two plain node:http listeners on
 * 127.0.0.1 — the API host and the web host — over one in-memory State. It counts every request
 * it gets (bad credentials included) so a test can measure the suite's request budget, and it
 * can be told to break a seed rule on purpose (`breakSeed`) so a test can see the suite say so.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { seedState, type State } from "./state.ts";
import { identify, problem, RateLimiter, readRequest, send, type Answer, type Counts, type Req } from "./http.ts";
import { WebHost } from "./oauth.ts";
import { Lists } from "./feeds.ts";
import { Hooks } from "./hooks.ts";
import { Happenings } from "./triggers.ts";
import { NonWeb } from "./nonweb.ts";

export interface IndependentOptions {
  /** Break one seed rule on purpose (test code: the suite must report it). */
  breakSeed?: "ping-inactive" | "wrong-signature" | "grant-unknown-scopes" | "feed-304-ignored";
}

export interface IndependentServer {
  api: string;
  auth: string;
  state: State;
  adminKey: string;
  counts: Counts;
  /** Per rate-limit bucket (`ip:<address>` for no or bad credentials, `user:<login>`): what the requests spent, 304s given back. */
  spent(): Record<string, number>;
  /** What the run left on the server: hooks, and tokens and grants the profile did not bring. */
  leftovers(): { hooks: number[]; tokens: { login: string; note?: string; clientId?: string }[]; grants: { login: string; clientId: string }[]; codes: number; sessions: number };
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startIndependentServer(options: IndependentOptions = {}): Promise<IndependentServer> {
  const state = seedState();
  const adminKey = randomBytes(12).toString("hex");
  const counts: Counts = { total: 0, anonymous: 0, authenticated: 0, badCredentials: 0, notModified: 0, web: 0 };
  const limiter = new RateLimiter(counts);
  let apiBase = "";
  const base = () => apiBase;
  const web = new WebHost(state, { grantUnknownScopes: options.breakSeed === "grant-unknown-scopes" });
  const lists = new Lists(state, base);
  const hooks = new Hooks(state, base, { pingInactive: options.breakSeed === "ping-inactive", wrongSignature: options.breakSeed === "wrong-signature" });
  const happen = new Happenings(state, hooks, base, adminKey);
  const nonweb = new NonWeb(state, base);

  const count = (req: Req) => {
    counts.total++;
    if (req.badCredentials) counts.badCredentials++;
    else if (req.user) counts.authenticated++;
    else counts.anonymous++;
  };

  const apiRoute = async (req: Req): Promise<Answer> => {
    if (req.badCredentials) return problem(401, "bad_credentials", "Those credentials are not taken here");
    const answer = happen.handle(req) ?? nonweb.handle(req) ?? lists.handleFeed(req) ?? lists.handleIssueEvents(req) ?? (await hooks.handle(req));
    return answer ?? problem(404, "not_found", `Nothing at ${req.method} ${req.url.pathname}`);
  };

  const api = createServer((raw, res) => {
    void (async () => {
      const req = await readRequest(raw, apiBase);
      if (req === "too-big") {
        counts.total++;
        return send(res, problem(413, "too_big", "The body is over 1 MiB"));
      }
      identify(state, req);
      // The test-only trigger endpoint is the profile's, not the suite's: neither counted nor limited.
      if (req.path.startsWith("/_indie/")) return send(res, (await apiRoute(req)));
      count(req);
      const rate = limiter.take(req);
      let answer: Answer;
      if (!rate.ok) answer = problem(429, "slow_down", "The hourly limit is spent");
      else answer = await apiRoute(req);
      if (answer.status === 304) {
        limiter.giveBack(req);
        counts.notModified++;
        if (options.breakSeed === "feed-304-ignored") answer = { ...answer, status: 200, json: [] };
      }
      const now = limiter.peek(req);
      answer.headers = { ...answer.headers, "x-ratelimit-limit": String(now.limit), "x-ratelimit-remaining": String(now.remaining) };
      // Scope headers (seed: comma-separated; this server writes them without spaces).
      if (req.token) answer.headers = { "x-oauth-scopes": req.token.scopes.join(","), "x-accepted-oauth-scopes": "", ...answer.headers };
      send(res, answer);
    })().catch(() => {
      if (!res.headersSent) send(res, problem(500, "oops", "Something broke"));
      else res.destroy();
    });
  });

  const auth = createServer((raw, res) => {
    void (async () => {
      const req = await readRequest(raw, authBase);
      if (req === "too-big") return send(res, problem(413, "too_big", "The body is over 1 MiB"));
      counts.web++;
      send(res, (await web.handle(req)) ?? problem(404, "not_found", `Nothing at ${req.method} ${req.url.pathname}`));
    })().catch(() => {
      if (!res.headersSent) send(res, problem(500, "oops", "Something broke"));
      else res.destroy();
    });
  });

  apiBase = await listen(api);
  const authBase = await listen(auth);
  return {
    api: apiBase,
    auth: authBase,
    state,
    adminKey,
    counts,
    spent: () => limiter.spent(),
    leftovers: () => ({
      hooks: state.hooks.map((h) => h.id),
      tokens: [...state.tokens.values()].filter((t) => !t.fixture).map((t) => ({ login: state.userById(t.userId).login, ...(t.note !== undefined ? { note: t.note } : {}), ...(t.clientId !== undefined ? { clientId: t.clientId } : {}) })),
      grants: state.grants.map((g) => ({ login: state.userById(g.userId).login, clientId: g.clientId })),
      codes: state.codes.size,
      sessions: state.sessions.size,
    }),
    async close() {
      await Promise.allSettled([...hooks.pending]);
      api.closeAllConnections();
      auth.closeAllConnections();
      await Promise.all([new Promise((r) => api.close(r)), new Promise((r) => auth.close(r))]);
    },
  };
}
