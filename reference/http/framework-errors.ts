/**
 * Fastify's own refusals — a malformed URL (`%FF`), a path parameter over its length limit — come
 * before any route, so they would answer in Fastify's error format. The API host answers them in
 * the contract's error shape, with `X-RateLimit-*` like every API answer (the request skipped the
 * hooks that set them, so it is counted here, as an anonymous request of its client address: a
 * path that cannot be read is not read for credentials either); the web host, whose pages a
 * browser opens, answers a browser (one that accepts `text/html`) with an HTML error page like its
 * others, and anything else (the token endpoint's clients) in the error shape.
 */
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from "fastify";
import { errorBody } from "./errors.ts";
import { errorPage } from "../oauth/pages.ts";
import { sendPage } from "../oauth/forms.ts";
import { callerRateKey, remaining, type RateLimiter } from "./rate-limit.ts";

type FrameworkErrors = NonNullable<FastifyServerOptions["frameworkErrors"]>;

/** The refusal's status (a 4xx; anything else reads as 400) and its reason phrase, the message. */
function refusal(error: unknown): { status: number; message: string } {
  const code = (error as { statusCode?: number }).statusCode;
  const status = code && code >= 400 && code < 500 ? code : 400;
  return { status, message: STATUS_CODES[status] ?? "Bad Request" };
}

/** The refusal in the error shape, without rate-limit headers (the web host has none). */
const plainRefusal: FrameworkErrors = (error, _request, reply) => {
  const { status, message } = refusal(error);
  // Fastify types the reply by route generics this handler has none of.
  void (reply as unknown as FastifyReply).code(status).send(errorBody(message));
};

export function apiFrameworkErrors(limiter: RateLimiter): FrameworkErrors {
  return (error, request, reply) => {
    const { status, message } = refusal(error);
    const r = reply as unknown as FastifyReply;
    limiter.consume(callerRateKey(undefined, request.ip), limiter.limits.anonymous).then(
      (state) => {
        r.header("x-ratelimit-limit", state.limit).header("x-ratelimit-remaining", remaining(state)).header("x-ratelimit-reset", state.reset);
        void r.code(status).send(errorBody(message));
      },
      () => void r.code(status).send(errorBody(message)),
    );
  };
}

export const webFrameworkErrors: FrameworkErrors = (error, request: FastifyRequest, reply: FastifyReply) => {
  const accept = request.headers.accept;
  if (typeof accept !== "string" || !accept.includes("text/html")) return plainRefusal(error, request, reply);
  const { status, message } = refusal(error);
  void sendPage(reply, errorPage(status, message, "This address is not one the server can read. Check the link and try again."));
};

/**
 * Requests Node's HTTP parser refuses before Fastify sees them — headers over the size limit
 * (an `If-None-Match` of many kilobytes), a malformed request line, a request that took too long —
 * are answered here, on the socket, in the error shape (Fastify's default writes its own format).
 * `Connection: close` tells a keep-alive client that this socket is done, as Node's own answer
 * does; without it the client pools the socket and its next request fails with a hang-up.
 * Both hosts use it: on the web host the request's `Accept` is not known (its headers are what
 * failed to parse), so the answer is the error shape there too. With a limiter (the API host)
 * the answer carries `X-RateLimit-*` like every API answer, counted for the client address
 * (nothing else of the request was read); the web host has none.
 */
export function clientErrors(limiter?: RateLimiter): (error: Error & { code?: string }, socket: Duplex) => void {
  return (error, socket) => {
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    const status = error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
    const body = JSON.stringify(errorBody(STATUS_CODES[status]!));
    const write = (rateHeaders: string): void => {
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n${rateHeaders}Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      }
      socket.destroy(error);
    };
    if (!limiter) return write("");
    const ip = (socket as Duplex & { remoteAddress?: string }).remoteAddress;
    limiter.consume(callerRateKey(undefined, ip), limiter.limits.anonymous).then(
      (state) => write(`X-RateLimit-Limit: ${state.limit}\r\nX-RateLimit-Remaining: ${remaining(state)}\r\nX-RateLimit-Reset: ${state.reset}\r\n`),
      () => write(""),
    );
  };
}
