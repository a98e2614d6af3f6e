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

export function serverWithLane(lane: PollLane): (handler: Handler, options: FastifyServerOptions) => Server {
  return (handler, options) => {
    const server = createServer((req, res) => {
      if (!lane.answer(req, res)) handler(req, res);
    });
    // As fastify/lib/server.js sets them on the server it creates (the options carry its defaults).
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
