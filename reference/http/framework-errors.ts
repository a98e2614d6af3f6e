/**
 * Fastify's own refusals — a malformed URL (`%FF`), a path parameter over its length limit — come
 * before any route, so they would answer in Fastify's error format. The API host answers them in
 * the contract's error shape; the web host, whose pages a browser opens, answers a browser (one
 * that accepts `text/html`) with an HTML error page like its others, and anything else (the token
 * endpoint's clients) in the error shape.
 */
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from "fastify";
import { DOCUMENTATION_URL } from "./errors.ts";
import { errorPage } from "../oauth/pages.ts";

type FrameworkErrors = NonNullable<FastifyServerOptions["frameworkErrors"]>;

// Fastify types the reply by route generics these handlers have none of.
type PlainReply = { code(n: number): PlainReply; headers(h: Record<string, string>): PlainReply; header(name: string, value: string): PlainReply; send(body: unknown): void };

function refusal(error: unknown): { status: number; message: string } {
  const code = (error as { statusCode?: number }).statusCode;
  const status = code && code >= 400 && code < 500 ? code : 400;
  return { status, message: status === 414 ? "URI Too Long" : "Bad Request" };
}

export const apiFrameworkErrors: FrameworkErrors = (error, _request, reply) => {
  const { status, message } = refusal(error);
  (reply as unknown as PlainReply).code(status).send({ message, documentation_url: DOCUMENTATION_URL });
};

export const webFrameworkErrors: FrameworkErrors = (error, request: FastifyRequest, reply: FastifyReply) => {
  const accept = request.headers.accept;
  if (typeof accept !== "string" || !accept.includes("text/html")) return apiFrameworkErrors(error, request, reply);
  const { status, message } = refusal(error);
  const page = errorPage(status, message, "This address is not one the server can read. Check the link and try again.");
  (reply as unknown as PlainReply).code(page.status).headers(page.headers).header("content-type", "text/html; charset=utf-8").send(page.body);
};
