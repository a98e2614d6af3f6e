/**
 * The webhook receiver behind its node:http adapter, fed real signed deliveries over loopback in
 * both content types: accepted when correctly signed, refused for a wrong secret, a tampered
 * body or a missing signature, and answered with the service's error shape otherwise.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookReceiver, sign, webhookHandler, type WebhookDelivery } from "../../generated/client/index.ts";
import type { PushWebhookPayload } from "../../generated/types.ts";

const examples = join(import.meta.dirname, "../../spec/examples/webhooks");
const push = readFileSync(join(examples, "push/valid-branch-push.json"), "utf8");
const pushInvalid = readFileSync(join(examples, "push/invalid-missing-pusher.json"), "utf8");
const ping = readFileSync(join(examples, "ping/valid-minimal.json"), "utf8");
const SECRET = "It's a Secret to Everybody";

const received: { event: string; payload: unknown; delivery: WebhookDelivery }[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  const receiver = createWebhookReceiver({ secret: SECRET });
  receiver.on("push", (payload: PushWebhookPayload, delivery) => void received.push({ event: "push", payload, delivery }));
  receiver.on("ping", (payload, delivery) => {
    if (payload.zen === "explode") throw new Error("handler bug");
    received.push({ event: "ping", payload, delivery });
  });
  server = createServer(webhookHandler(receiver));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

type Kind = "json" | "form";
function encode(kind: Kind, json: string): { body: string; type: string } {
  return kind === "json" ? { body: json, type: "application/json" } : { body: `payload=${encodeURIComponent(json)}`, type: "application/x-www-form-urlencoded" };
}

async function deliver(options: { kind: Kind; json: string; event?: string; secret?: string; signWith?: "both" | "sha1" | "sha256" | "none"; tamper?: boolean; contentType?: string }) {
  const { body, type } = encode(options.kind, options.json);
  const secret = options.secret ?? SECRET;
  const headers: Record<string, string> = { "content-type": options.contentType ?? type, "user-agent": "Service-Hookshot/abc123", "x-service-delivery": crypto.randomUUID() };
  if (options.event !== "") headers["x-service-event"] = options.event ?? "push";
  const signWith = options.signWith ?? "both";
  if (signWith === "both" || signWith === "sha1") headers["x-hub-signature"] = sign(secret, body, "sha1");
  if (signWith === "both" || signWith === "sha256") headers["x-hub-signature-256"] = sign(secret, body, "sha256");
  // "changes" is in the ref (refs/heads/changes), in either encoding.
  const sent = options.tamper ? body.replace("changes", "changez") : body;
  if (options.tamper && sent === body) throw new Error("tampering changed nothing");
  const response = await fetch(url, { method: "POST", headers, body: sent });
  return { status: response.status, body: (await response.json()) as { message: string; errors?: unknown[] }, id: headers["x-service-delivery"] };
}

describe.each(["json", "form"] as const)("%s deliveries", (kind) => {
  it.each(["both", "sha256"] as const)("accepts a correctly signed push (%s)", async (signWith) => {
    const before = received.length;
    const r = await deliver({ kind, json: push, signWith });
    expect(r.status).toBe(200);
    expect(received).toHaveLength(before + 1);
    const last = received.at(-1)!;
    expect(last.event).toBe("push");
    expect((last.payload as PushWebhookPayload).ref).toBe(JSON.parse(push).ref);
    expect(last.delivery).toMatchObject({ event: "push", id: r.id, contentType: kind });
  });

  it.each([
    ["a wrong secret", { secret: "not the secret" }, 401],
    ["a tampered body", { tamper: true }, 401],
    ["no signature", { signWith: "none" as const }, 401],
    ["a SHA-1 signature alone (the service always sends SHA-256 too)", { signWith: "sha1" as const }, 401],
    ["no X-Service-Event", { event: "" }, 400],
    ["an invalid payload", { json: pushInvalid }, 422],
    ["a body that is not JSON", { json: "{not json" }, 400],
  ])("refuses %s", async (_, options, status) => {
    const before = received.length;
    const r = await deliver({ kind, json: push, ...options });
    expect(r.status).toBe(status);
    expect(typeof r.body.message).toBe("string");
    expect(received).toHaveLength(before);
  });
});

describe("other answers", () => {
  it("reports validation errors in the 422 shape", async () => {
    const r = await deliver({ kind: "json", json: pushInvalid });
    expect(r.body).toMatchObject({ message: "Validation Failed", errors: [expect.objectContaining({ resource: "WebhookPayload", code: "invalid" })] });
  });

  it("dispatches ping to its own handler", async () => {
    const r = await deliver({ kind: "json", json: ping, event: "ping" });
    expect(r.status).toBe(200);
    expect(received.at(-1)!.event).toBe("ping");
  });

  it("acknowledges a known event without a handler, and an unknown event, with 202", async () => {
    expect((await deliver({ kind: "json", json: "{}", event: "future_event" })).status).toBe(202);
    const release = readFileSync(join(examples, "release", "valid-published.json"), "utf8");
    expect((await deliver({ kind: "json", json: release, event: "release" })).status).toBe(202);
  });

  it("acknowledges an action the contract does not know with 202, without dispatching", async () => {
    const before = received.length;
    const r = await deliver({ kind: "json", json: JSON.stringify({ ...JSON.parse(push), action: "future_action" }) });
    // push has no action in the contract: an extra field is fine, so it is handled.
    expect(r.status).toBe(200);
    const issues = readFileSync(join(examples, "issues", "valid-opened.json"), "utf8");
    const unknown = await deliver({ kind: "json", json: JSON.stringify({ ...JSON.parse(issues), action: "transferred" }), event: "issues" });
    expect(unknown).toMatchObject({ status: 202, body: { message: "Action transferred of issues is not handled" } });
    const broken = await deliver({ kind: "json", json: JSON.stringify({ ...JSON.parse(issues), action: "transferred", issue: "not an issue" }), event: "issues" });
    expect(broken.status).toBe(422);
    expect(received).toHaveLength(before + 1);
  });

  it("answers 415 for other content types, 405 for other methods, 500 when a handler throws", async () => {
    expect((await deliver({ kind: "json", json: push, contentType: "text/plain" })).status).toBe(415);
    expect((await fetch(url)).status).toBe(405);
    const zen = JSON.stringify({ ...JSON.parse(ping), zen: "explode" });
    const r = await deliver({ kind: "json", json: zen, event: "ping" });
    expect(r).toMatchObject({ status: 500, body: { message: "Webhook handler failed" } });
  });
});
