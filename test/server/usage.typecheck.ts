/**
 * Compile-only checks of the generated server types (`npx tsc -p .`, part of `npm test`): what a
 * handler may return is exactly what the contract lists, and `registerAllRoutes` insists on every
 * handler of its host. Each `@ts-expect-error` fails the typecheck if the line ever compiles.
 */
import Fastify from "fastify";
import {
  registerAllRoutes,
  registerRoutes,
  type HostHandlers,
  type ListRepoEventsRequest,
  type ListRepoEventsResponse,
  type Handlers,
} from "../../generated/server/index.ts";

type Feed = ListRepoEventsResponse;
const app = Fastify();

// Request values are typed from the contract.
export function readRequest(request: ListRepoEventsRequest): [string, number | undefined, string | undefined] {
  return [request.params.owner, request.query.page, request.headers["If-None-Match"]];
}

export const ok: Feed = { status: 200, headers: { ETag: '"a"', "X-Poll-Interval": 60, "X-RateLimit-Limit": 60, "X-RateLimit-Remaining": 59, "X-RateLimit-Reset": 1 }, body: [] };
export const notModified: Feed = { status: 304, headers: { ETag: '"a"', "X-Poll-Interval": 60, "X-RateLimit-Limit": 60, "X-RateLimit-Remaining": 59, "X-RateLimit-Reset": 1 } };

// @ts-expect-error 201 is not a status of listRepoEvents
export const wrongStatus: Feed = { status: 201, headers: { ETag: '"a"', "X-Poll-Interval": 60 }, body: [] };

// @ts-expect-error the body of a feed is an array of activity events, not a string
export const wrongBody: Feed = { status: 200, headers: { ETag: '"a"', "X-Poll-Interval": 60, "X-RateLimit-Limit": 60, "X-RateLimit-Remaining": 59, "X-RateLimit-Reset": 1 }, body: "events" };

// @ts-expect-error ETag is required on a 200 feed response
export const missingHeader: Feed = { status: 200, headers: { "X-Poll-Interval": 60, "X-RateLimit-Limit": 60, "X-RateLimit-Remaining": 59, "X-RateLimit-Reset": 1 }, body: [] };

// @ts-expect-error a 304 has no body
export const bodyOn304: Feed = { status: 304, headers: { ETag: '"a"', "X-Poll-Interval": 60, "X-RateLimit-Limit": 60, "X-RateLimit-Remaining": 59, "X-RateLimit-Reset": 1 }, body: [] };

// Headers supplied by a hook need not be returned by handlers…
type Supplied = "X-RateLimit-Limit" | "X-RateLimit-Remaining" | "X-RateLimit-Reset";
export const suppliedOk: Handlers<Supplied>["listRepoEvents"] = () => ({ status: 200, headers: { ETag: '"a"', "X-Poll-Interval": 60 }, body: [] });
// …but the others still are.
// @ts-expect-error ETag is not supplied
export const suppliedMissing: Handlers<Supplied>["listRepoEvents"] = () => ({ status: 200, headers: { "X-Poll-Interval": 60 }, body: [] });

// The token endpoint: several media types, so the handler must choose one.
export const token: Handlers["createAccessToken"] = () => ({ status: 200, mediaType: "application/xml", body: { access_token: "t", scope: "", token_type: "bearer" } });
// @ts-expect-error with several media types the handler has to name one
export const tokenNoMedia: Handlers["createAccessToken"] = () => ({ status: 200, body: { access_token: "t", scope: "", token_type: "bearer" } });

// Partial handlers are fine for registerRoutes…
registerRoutes(app, { listRepoEvents: () => ok }, { host: "api" });
registerRoutes(app, { listRepoEvents: () => ({ status: 200, headers: { ETag: '"a"', "X-Poll-Interval": 60 }, body: [] }) }, { host: "api", suppliedHeaders: ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"] });

// …while registerAllRoutes needs every handler of the host.
declare const everyAuthHandler: HostHandlers<"auth">;
registerAllRoutes(app, everyAuthHandler, { host: "auth" });
const { authorize: _dropped, ...allButOne } = everyAuthHandler;
// @ts-expect-error the authorize handler is missing
registerAllRoutes(app, allButOne, { host: "auth" });
