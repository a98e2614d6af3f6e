/**
 * `service-contract webhooks send <event>`: act as the service towards a webhook receiver — sign
 * one delivery and POST it, with the headers and body bytes the reference server sends (the same
 * code: conformance/consumers/send-delivery.ts), like a payment provider's "trigger" command. The
 * payload is the contract's valid example for the event (and `--action`) unless `--payload`
 * gives one, which is validated against the contract first (`--no-validate` sends it anyway).
 * Prints the receiver's status, the time it took and an excerpt of its answer. Exit 0 when the
 * receiver answered 2xx, 1 when it answered anything else or not at all, 2 for bad usage (an
 * unknown event, an unreadable or invalid payload, a bad URL). `--list` lists events and actions.
 */
import { readFileSync } from "node:fs";
import { Command } from "commander";
import type { CommandFactory } from "../main.ts";
import { EXIT_CHECK_FAILED, EXIT_OK, UsageError } from "../exit-codes.ts";
import { inert } from "../../conformance/core/inert-text.ts";

interface SendOptions {
  url?: string;
  secret?: string;
  contentType: string;
  payload?: string;
  action?: string;
  validate: boolean;
  delivery?: string;
  timeout: string;
  list?: boolean;
}

/** How much of the receiver's answer is printed. */
const EXCERPT_CHARS = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function targetUrl(value: string | undefined): string {
  if (!value) throw new UsageError("--url is required: where the receiver listens, e.g. http://127.0.0.1:9000/hook");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--url must be an http(s) URL, got ${value}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--url must be an http(s) URL, got ${value}`);
  return url.toString();
}

function readPayload(file: string): string {
  try {
    let text = file === "-" ? readFileSync(0, "utf8") : readFileSync(file, "utf8");
    if (text.startsWith("\uFEFF")) text = text.slice(1);
    return text;
  } catch (error) {
    throw new UsageError(`cannot read the payload ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

async function listEvents(write: (text: string) => void): Promise<void> {
  const { WEBHOOK_EVENTS, actionsOf, examplesOf } = await import("../../conformance/consumers/webhook-examples.ts");
  for (const event of WEBHOOK_EVENTS) {
    const actions = actionsOf(event);
    const example = examplesOf(event)[0];
    write(`${event.padEnd(30)}${actions.length > 0 ? `actions: ${actions.join(", ")}` : "(no action)"}${example ? `  example: ${example.file}` : ""}\n`);
  }
}

/** The payload's JSON text: the file's bytes as given, or the contract's example. */
async function payloadFor(event: string, opts: SendOptions): Promise<{ json: string; from: string }> {
  const { actionsOf, exampleFor, isWebhookEvent, WEBHOOK_EVENTS } = await import("../../conformance/consumers/webhook-examples.ts");
  if (!isWebhookEvent(event) && (opts.validate || !opts.payload)) {
    throw new UsageError(`unknown event ${JSON.stringify(event)}; the contract's events: ${WEBHOOK_EVENTS.join(", ")} (--list shows their actions; --payload FILE --no-validate sends any event)`);
  }
  // An action the contract does not have is named as such, with the ones it has, rather than
  // surfacing as a schema error on /action once the example has been rewritten with it.
  if (opts.action !== undefined && !opts.payload && opts.validate && isWebhookEvent(event)) {
    const actions = actionsOf(event);
    if (actions.length === 0) throw new UsageError(`${event} payloads have no action, got --action ${opts.action} (--no-validate sends it anyway)`);
    if (!actions.includes(opts.action)) throw new UsageError(`unknown action ${JSON.stringify(opts.action)} for ${event}; its actions: ${actions.join(", ")} (--no-validate sends it anyway)`);
  }
  let json: string;
  let from: string;
  if (opts.payload) {
    json = readPayload(opts.payload);
    from = opts.payload === "-" ? "stdin" : opts.payload;
    if (opts.action !== undefined) throw new UsageError("--action picks an example payload; with --payload, set the action in the file");
  } else {
    const example = exampleFor(event, opts.action)!;
    json = JSON.stringify(example.payload);
    from = example.action === opts.action || opts.action === undefined ? example.file : `${example.file} with action ${opts.action}`;
  }
  if (!opts.validate) return { json, from };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new UsageError(`the payload from ${from} is not valid JSON: ${(error as Error).message.replace(/\s+/g, " ")} (--no-validate sends it anyway)`);
  }
  const { validateWebhook } = await import("../../generated/validators/index.js");
  const verdict = validateWebhook(event, value);
  if (!verdict.valid) {
    const lines = verdict.errors.map((e) => `  ${e.path || "/"}: ${e.message}`).join("\n");
    throw new UsageError(`the payload from ${from} does not match the contract's ${event} payload:\n${lines}\n(--no-validate sends it anyway)`);
  }
  return { json, from };
}

/**
 * The receiver's answer as printed: a stranger's text, made inert by the suite's terminal rule
 * (C0 and C1 controls, bidi overrides and isolates become visible `\uXXXX`; line feeds stay).
 */
function excerpt(text: string | null): string {
  if (!text) return "(empty)";
  const cut = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}… (${text.length - EXCERPT_CHARS} more characters)` : text;
  return inert(cut);
}

const HELP = `
The delivery is what the service sends: POST, X-Service-Event, X-Service-Delivery (a new UUID, or
--delivery to repeat one), User-Agent Service-Hookshot/…, Content-Type, and with --secret both
X-Hub-Signature (sha1=…) and X-Hub-Signature-256 (sha256=…) over the exact bytes sent.
Exit codes: 0 the receiver answered 2xx, 1 any other answer or none within --timeout, 2 bad usage
(unknown event, a payload that is unreadable or breaks the contract, a bad URL).

Examples:
  service-contract webhooks send --list
  service-contract webhooks send push --url http://127.0.0.1:9000/hook --secret s3cret
  service-contract webhooks send issues --action closed --content-type form --url http://127.0.0.1:9000/hook --secret s3cret
  service-contract webhooks send push --payload my-push.json --url http://127.0.0.1:9000/hook --secret s3cret`;

function sendCommand(setExit: (code: number) => void): Command {
  return new Command("send")
    .exitOverride()
    .description("Sign and send one webhook delivery to a receiver, as the service would; print its answer.")
    .argument("[event]", "the X-Service-Event: push, issues, ping, … (--list)")
    .option("--url <url>", "the receiver's URL")
    .option("--secret <secret>", "the hook's secret: sign the delivery (without it, no signature headers, as for a hook without a secret)")
    .option("--content-type <type>", "json or form (the hook's content_type)", "json")
    .option("--payload <file>", "send this JSON payload (- for stdin) instead of the contract's example")
    .option("--action <action>", "the example for this action (issues opened, closed, …)")
    .option("--no-validate", "send the payload even if it breaks the contract (or names an unknown event)")
    .option("--delivery <uuid>", "X-Service-Delivery to send (repeat one to test redeliveries)")
    .option("--timeout <seconds>", "how long to wait for the answer (the service waits 10 s)", "10")
    .option("--list", "list the contract's events, their actions and example payloads")
    .addHelpText("after", HELP)
    .action(async (event: string | undefined, opts: SendOptions) => {
      const write = (text: string) => process.stdout.write(text);
      if (opts.list) {
        await listEvents(write);
        setExit(EXIT_OK);
        return;
      }
      if (!event) throw new UsageError("name the event to send (service-contract webhooks send --list shows them)");
      const url = targetUrl(opts.url);
      if (opts.contentType !== "json" && opts.contentType !== "form") throw new UsageError(`--content-type must be json or form, got ${opts.contentType}`);
      if (opts.secret === "") throw new UsageError("--secret must not be empty");
      if (opts.delivery !== undefined && !UUID.test(opts.delivery)) throw new UsageError(`--delivery must be a UUID, got ${opts.delivery}`);
      const timeout = Number(opts.timeout);
      if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 600) throw new UsageError(`--timeout must be a number of seconds (0 < s ≤ 600), got ${opts.timeout}`);
      const { json, from } = await payloadFor(event, opts);

      const { prepareDelivery, sendPrepared, isSuccess, deliveryPool } = await import("../../conformance/consumers/send-delivery.ts");
      const delivery = prepareDelivery({ url, event, payloadJson: json, contentType: opts.contentType, secret: opts.secret, guid: opts.delivery });
      write(`POST ${url}\n`);
      for (const [name, value] of Object.entries(delivery.headers)) write(`  ${name}: ${value}\n`);
      write(`  (${Buffer.byteLength(delivery.body)} bytes, payload from ${from})\n`);
      const pool = deliveryPool();
      const outcome = await sendPrepared(delivery, { timeoutMs: Math.round(timeout * 1000), pool }).finally(() => pool.destroy());
      const ms = Math.round(outcome.durationMs);
      // The status text and an error's message may carry the receiver's bytes too.
      if (outcome.statusCode === 0) write(`No answer: ${inert(outcome.message, { oneLine: true })} (after ${ms} ms)\n`);
      else write(`${outcome.statusCode} ${isSuccess(outcome) ? "OK" : inert(outcome.status, { oneLine: true })} in ${ms} ms\n${excerpt(outcome.responseBody)}\n`);
      setExit(isSuccess(outcome) ? EXIT_OK : EXIT_CHECK_FAILED);
    });
}

export const webhooksCommand: CommandFactory = (setExit) =>
  new Command("webhooks")
    .description("Act as the service towards a webhook receiver (webhooks send).")
    .addHelpText("after", "\nExamples:\n  service-contract webhooks send --list\n  service-contract webhooks send push --url http://127.0.0.1:9000/hook --secret s3cret")
    .addCommand(sendCommand(setExit));
