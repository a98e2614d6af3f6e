/**
 * A webhook receiver built on the generated helper, the one README "Building a webhook receiver"
 * walks through: `createWebhookReceiver` checks X-Hub-Signature-256 over the raw bytes, validates
 * each payload against the contract and dispatches it typed; `webhookHandler` is the node:http
 * glue. It passes `service-contract conformance --receiver`. Run it:
 * `WEBHOOK_SECRET=s3cret node --import tsx conformance/examples/webhook-receiver.ts` (port 9000,
 * or PORT).
 */
import { createServer } from "node:http";
import { createWebhookReceiver, webhookHandler } from "../../generated/client/index.ts";

const secret = process.env.WEBHOOK_SECRET ?? "s3cret";
const receiver = createWebhookReceiver({ secret });

receiver.on("push", (payload, delivery) => {
  // Typed as PushWebhookPayload; `delivery.id` is the same on a redelivery (de-duplicate on it).
  console.log(`push ${delivery.id}: ${payload.ref} ${payload.before.slice(0, 7)}..${payload.after.slice(0, 7)}`);
});
receiver.on("issues", (payload) => console.log(`issues: #${payload.issue.number} ${payload.action}`));
receiver.on("ping", (payload) => console.log(`ping from hook ${payload.hook_id}: ${payload.zen}`));

const port = Number(process.env.PORT ?? 9000);
createServer(webhookHandler(receiver, { onOutcome: (o) => console.log(`→ ${o.status} ${o.event ?? ""} ${o.body.message}`) })).listen(port, "127.0.0.1", () => {
  console.log(`Receiving webhooks at http://127.0.0.1:${port}/hook`);
});
