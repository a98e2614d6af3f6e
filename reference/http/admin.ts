/**
 * POST /_admin/simulate/:event on the API host — outside the contract, registered only by
 * `serve --simulate` — runs a domain action (reference/domain) so events can be made while the
 * server holds the database (PGlite allows one process). Guarded by an admin token in the
 * `X-Admin-Token` header, compared in constant time; no token configured means no route.
 *
 * Body (JSON, all optional): {"repo":"owner/name","actor":"login","count":N,"params":{"k":"v"}}.
 * 201 {"events":[…],"issue_events":[…]}; 401 bad token; 404 unknown event/repository/actor;
 * 422 bad parameters — all in the contract's error shape.
 */
import type { FastifyInstance } from "fastify";
import type { Context } from "../context.ts";
import { constantTimeEqual } from "../auth/secrets.ts";
import { DomainError, runAction, type DomainContext, type Listener } from "../domain/index.ts";
import { errorBody } from "./errors.ts";

export const ADMIN_TOKEN_HEADER = "x-admin-token";
export const MAX_COUNT = 100;

export interface AdminOptions {
  token: string;
  listeners?: Listener[];
}

export interface SimulateRequest {
  repo?: unknown;
  actor?: unknown;
  count?: unknown;
  params?: unknown;
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === "string");
}

/**
 * The request body as an object, or undefined when it is not a JSON object. On the API host the
 * generated routes collect every body as raw bytes (runtime/server/body.ts), so it arrives here
 * as a Buffer; on a bare Fastify it arrives parsed.
 */
function adminBody(raw: unknown): SimulateRequest | undefined {
  let body: unknown = raw ?? {};
  if (Buffer.isBuffer(body)) {
    try {
      body = body.length > 0 ? (JSON.parse(body.toString("utf8")) as unknown) : {};
    } catch {
      return undefined;
    }
  }
  return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as SimulateRequest) : undefined;
}

export function registerAdmin(app: FastifyInstance, ctx: Context, options: AdminOptions): void {
  if (options.token.length < 16) throw new Error("the admin token must be at least 16 characters");
  const domain: DomainContext = { db: ctx.db, urls: ctx.urls, now: ctx.now, listeners: options.listeners };
  app.post<{ Params: { event: string }; Body: SimulateRequest | undefined }>("/_admin/simulate/:event", { bodyLimit: 64 * 1024 }, async (request, reply) => {
    const given = request.headers[ADMIN_TOKEN_HEADER];
    if (typeof given !== "string" || !constantTimeEqual(given, options.token)) {
      return reply.code(401).send(errorBody("Bad admin token"));
    }
    const body = adminBody(request.body);
    if (!body) return reply.code(422).send(errorBody("Body must be a JSON object"));
    const repo = body.repo ?? "octocat/hello-world";
    const actor = body.actor ?? "octocat";
    const count = body.count ?? 1;
    const params = body.params ?? {};
    if (typeof repo !== "string" || typeof actor !== "string") return reply.code(422).send(errorBody("repo and actor must be strings"));
    if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > MAX_COUNT) return reply.code(422).send(errorBody(`count must be an integer 1..${MAX_COUNT}`));
    if (!isStringRecord(params)) return reply.code(422).send(errorBody("params must be an object of strings"));
    const events: unknown[] = [];
    const issueEvents: unknown[] = [];
    try {
      for (let i = 0; i < count; i++) {
        // PGlite never yields between statements: let requests and deliveries run between actions.
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        const result = await runAction(domain, request.params.event, { repo, actor, params });
        events.push(...result.events);
        issueEvents.push(...result.issueEvents);
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return reply.code(error.code === "not_found" ? 404 : 422).send(errorBody(error.message));
    }
    return reply.code(201).send({ events, issue_events: issueEvents });
  });
}
