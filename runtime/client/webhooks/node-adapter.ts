/**
 * node:http glue for a WebhookReceiver: `http.createServer(webhookHandler(receiver))`, or mount
 * it in any framework that exposes the raw request stream. The body is read as raw bytes (the
 * signature covers exactly those), capped at the service's 25 MB delivery limit.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { WebhookOutcome, WebhookReceiver } from "./receiver.ts";

export const MAX_DELIVERY_BYTES = 25 * 1024 * 1024;

export interface NodeHandlerOptions {
  maxBytes?: number;
  /** Called after each delivery, e.g. for logging. */
  onOutcome?: (outcome: WebhookOutcome) => void;
}

function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | "too-large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(tooLarge ? "too-large" : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, outcome: WebhookOutcome): void {
  const body = JSON.stringify(outcome.body);
  res.writeHead(outcome.status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

export function webhookHandler<P extends object>(receiver: WebhookReceiver<P>, options: NodeHandlerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const maxBytes = options.maxBytes ?? MAX_DELIVERY_BYTES;
  return (req, res) => {
    void (async () => {
      let outcome: WebhookOutcome;
      if (req.method !== "POST") {
        res.setHeader("allow", "POST");
        outcome = { status: 405, body: { message: "Webhook deliveries are POST requests" } };
        req.resume();
      } else {
        const body = await readBody(req, maxBytes);
        outcome = body === "too-large" ? { status: 413, body: { message: "Payload too large" } } : await receiver.receive({ body, headers: req.headers });
      }
      options.onOutcome?.(outcome);
      send(res, outcome);
    })().catch(() => {
      // The connection broke while reading; there is nobody left to answer.
      if (!res.headersSent) res.destroy();
    });
  };
}
