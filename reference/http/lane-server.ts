/**
 * The API host's HTTP server, with the poll lane (poll-lane.ts) in front of Fastify: each request
 * is offered to the lane first and goes to Fastify's handler only when the lane leaves it.
 * Fastify's `serverFactory` hands over the server's creation, so the settings Fastify would apply
 * to a server it created itself are applied here, from the options it passes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { FastifyServerOptions } from "fastify";
import type { PollLane } from "./poll-lane.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The lane's answer, never a crash: an error the lane throws before it has written anything hands
 * the request to Fastify, which answers it the full way; after, the connection is cut.
 */
function answeredBy(lane: PollLane): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    try {
      return lane.answer(req, res);
    } catch {
      if (!res.headersSent) return false;
      res.destroy();
      return true;
    }
  };
}

export function serverWithLane(lane: PollLane): (handler: Handler, options: FastifyServerOptions) => Server {
  const answered = answeredBy(lane);
  return (handler, options) => {
    const server = createServer((req, res) => {
      // Once the server is closing, requests on kept-alive connections go to Fastify, which
      // answers them with `Connection: close` (503) so that pollers let go.
      if (!server.listening || !answered(req, res)) handler(req, res);
    });
    // As fastify/lib/server.js sets them on the server it creates (the options carry its defaults).
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
