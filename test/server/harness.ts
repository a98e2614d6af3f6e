/**
 * Test harness for the generated server stubs: a Fastify instance with the given handlers,
 * listening on a free loopback port, plus the fixtures the handlers return (the contract's own
 * valid examples). Every test talks to it over real HTTP with fetch.
 */
import { readFileSync } from "node:fs";
import Fastify, { type FastifyInstance } from "fastify";
import { registerRoutes, type Handlers, type ResponseValidationFailure, type ServerOptions } from "../../generated/server/index.ts";

export const RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"] as const;
export type RateLimitHeader = (typeof RATE_LIMIT_HEADERS)[number];

export function example<T = unknown>(path: string): T {
  return JSON.parse(readFileSync(new URL(`../../spec/examples/${path}.json`, import.meta.url), "utf8")) as T;
}

export interface Running {
  app: FastifyInstance;
  url: string;
  /** Response-validation failures and handler errors reported during the test. */
  reported: ResponseValidationFailure[];
  handlerErrors: unknown[];
  close: () => Promise<void>;
}

/**
 * Start a server for one host. The rate-limit headers every API response carries are set by a
 * hook, as a real server would, and declared as supplied so handlers need not repeat them.
 */
export async function start<H extends "api" | "auth">(
  host: H,
  handlers: Partial<Handlers<RateLimitHeader>>,
  options: Partial<ServerOptions<H, RateLimitHeader>> & {
    /** Hooks of the server's own, added before the routes (an authentication hook that answers from the headers). */
    before?: (app: FastifyInstance) => void;
  } = {},
): Promise<Running> {
  const { before, ...serverOptions } = options;
  const app = Fastify({ logger: false });
  app.addHook("onRequest", async (_request, reply) => {
    reply.header("X-RateLimit-Limit", "60").header("X-RateLimit-Remaining", "59").header("X-RateLimit-Reset", "1700000000");
  });
  before?.(app);
  const reported: ResponseValidationFailure[] = [];
  const handlerErrors: unknown[] = [];
  registerRoutes(app, handlers as never, {
    host,
    validateResponses: true,
    suppliedHeaders: RATE_LIMIT_HEADERS,
    onResponseValidationError: (failure) => reported.push(failure),
    onHandlerError: (error) => handlerErrors.push(error),
    // These tests are about what the runtime does with a request, mostly sent without credentials;
    // the refusal of those comes first by default (credentials-first.test.ts turns it back on).
    refuseAnonymous: false,
    ...serverOptions,
  } as ServerOptions<H, RateLimitHeader>);
  const address = await app.listen({ host: "127.0.0.1", port: 0 });
  return { app, url: address, reported, handlerErrors, close: () => app.close() };
}
