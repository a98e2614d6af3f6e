/**
 * Answers given before the request's body was read — 413 past the body limit, a 401/404/415
 * refused from the headers — and the rest of that body. Many clients (Prism's forwarder, plain
 * HTTP libraries) write the whole body before they read the answer. Left alone, Fastify marks a
 * 413 `Connection: close` and Node closes the socket as soon as the answer is written, with the
 * client's bytes still arriving: the client's next write fails (EPIPE, ECONNRESET) and it never
 * reads the 413 waiting for it. And where the connection is kept (an early 401), Node reads the
 * rest of the body however long it is.
 *
 * So, like nginx's lingering close: the rest of the body is read and thrown away (never kept),
 * up to `discardLimit` bytes, and the connection stays usable once the body has ended; past the
 * limit the connection is cut. A body declared (`Content-Length`) over the limit is not waited
 * for: its answer goes out with `Connection: close` at once. A client that asked for the
 * connection to close (`Connection: close`, HTTP/1.0) gets its answer once the body has been
 * read, since Node closes the socket right after the answer. spec/DECISIONS.md D-REQ-UNREAD-BODY.
 */
import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** How much of a body the server reads and discards after answering early (8 MiB). */
export const DEFAULT_DISCARD_LIMIT = 8 * 1024 * 1024;

/** The body still to come: the request has one (a length or chunks) and it has not ended. */
function bodyPending(req: IncomingMessage): boolean {
  if (req.complete || req.readableEnded) return false;
  const length = req.headers["content-length"];
  return (length !== undefined && length !== "0") || req.headers["transfer-encoding"] !== undefined;
}

/**
 * Read and drop the rest of `req`'s body. Resolves true when it ended within `limit` bytes; past
 * the limit the socket is destroyed and it resolves false (so does a client that goes away).
 */
function discardRest(req: IncomingMessage, limit: number): Promise<boolean> {
  return new Promise((resolve) => {
    let discarded = 0;
    const finish = (ended: boolean): void => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      resolve(ended);
    };
    const onData = (chunk: Buffer): void => {
      discarded += chunk.length;
      if (discarded > limit) {
        req.socket.destroy();
        finish(false);
      }
    };
    const onEnd = (): void => finish(true);
    const onClose = (): void => finish(req.complete);
    // An aborted upload errors the request stream; it is the client's doing, not ours to report.
    req.on("error", () => {});
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("close", onClose);
    req.resume();
  });
}

function closesAfterAnswer(reply: FastifyReply): boolean {
  return reply.raw.shouldKeepAlive === false;
}

export function installLingeringRead(app: FastifyInstance, discardLimit: number): void {
  // A callback hook, not an async one: it runs on every answer, and nearly all have no body pending.
  app.addHook("onSend", (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    const req = request.raw;
    if (!bodyPending(req)) return done(null, payload);
    const declared = Number(req.headers["content-length"]);
    if (declared > discardLimit) {
      // Not worth reading: say the connection ends with this answer (Node closes it after).
      reply.header("connection", "close");
      return done(null, payload);
    }
    if (closesAfterAnswer(reply)) {
      // Node closes the socket once the answer is written: read the body first, then answer.
      void discardRest(req, discardLimit).then((ended) => {
        if (!ended) reply.raw.destroy();
        done(null, payload);
      });
      return;
    }
    // Fastify's `Connection: close` on a body refusal would close the socket under the client's
    // upload; the body is read to its end instead, and the connection stays usable.
    if (String(reply.getHeader("connection") ?? "").toLowerCase() === "close") reply.removeHeader("connection");
    void discardRest(req, discardLimit);
    done(null, payload);
  });
}
