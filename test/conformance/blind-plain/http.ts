// http.ts — the reply shape shared by both hosts, the error body helpers and the response writer.
import type { ServerResponse } from "node:http";

export type Headers = Record<string, string | string[]>;
export interface Reply { status: number; body?: unknown; text?: string; headers?: Headers }

/** Thrown by handlers and guards to answer with `reply` at once. */
export class HttpError extends Error {
  constructor(readonly reply: Reply) { super(`HTTP ${reply.status}`); }
}

/** `{"error":{"code","message"}}`; 401 always carries the Basic challenge. */
export function errReply(status: number, code: string, message: string, headers: Headers = {}): Reply {
  const h: Headers = { ...headers };
  if (status === 401) h["WWW-Authenticate"] = 'Basic realm="api"';
  return { status, body: { error: { code, message } }, headers: h };
}

export const fail = (status: number, code: string, message: string, headers?: Headers): HttpError =>
  new HttpError(errReply(status, code, message, headers));

export const notFound = (): HttpError => fail(404, "not_found", "Not Found");

export const invalid = (code: string, message: string): HttpError => fail(422, code, message);

export function writeReply(res: ServerResponse, r: Reply, head = false): void {
  const headers: Headers = { ...r.headers };
  let payload = r.text;
  if (payload === undefined && r.body !== undefined) {
    payload = JSON.stringify(r.body);
    headers["Content-Type"] ??= "application/json; charset=utf-8";
  }
  if (payload !== undefined) headers["Content-Length"] = String(Buffer.byteLength(payload));
  else if (r.status !== 204 && r.status !== 304) headers["Content-Length"] = "0";
  res.writeHead(r.status, headers);
  res.end(head || r.status === 204 || r.status === 304 ? undefined : payload);
}
