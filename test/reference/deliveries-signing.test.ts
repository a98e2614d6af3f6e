/**
 * Delivery signatures and bodies: the DESIGN.md sha256 test vector against the signing module;
 * real deliveries (JSON and form) to a local receiver, whose raw bytes carry both signature
 * headers that verify with the hook's secret; the generated receiver accepts them with the right
 * secret and rejects them with a wrong one; every body validates against its webhook schema.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureHeaders } from "../../reference/deliveries/signing.ts";
import { USER_AGENT } from "../../reference/deliveries/request.ts";
import { createWebhookReceiver } from "../../generated/client/webhooks.ts";
import { validateWebhook } from "../../generated/validators/index.js";
import { useServer } from "./harness.ts";
import { startReceiver, type Receiver, type Received } from "./webhook-receiver.ts";
import { ADMIN_TOKEN, createHook, FAST, hookToken, simulate } from "./deliveries-fixtures.ts";
import { ceiling } from "../ceilings.ts";

const SECRET = "It's a Secret to Everybody";

describe("the signing module", () => {
  it("matches the DESIGN.md sha256 test vector", () => {
    expect(signatureHeaders(SECRET, Buffer.from("Hello, World!"))["X-Hub-Signature-256"]).toBe(
      "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
    );
  });

  it("signs the same bytes with sha1 in X-Hub-Signature", () => {
    const expected = createHmac("sha1", SECRET).update("Hello, World!").digest("hex");
    expect(signatureHeaders(SECRET, "Hello, World!")["X-Hub-Signature"]).toBe(`sha1=${expected}`);
  });
});

const t = useServer({ adminToken: ADMIN_TOKEN, deliveries: FAST });

/** The payload a receiver got: the JSON body, or the form's `payload` field. */
function payloadOf(r: Received): Record<string, unknown> {
  const text = r.body.toString("utf8");
  if (r.headers["content-type"] === "application/json") return JSON.parse(text) as Record<string, unknown>;
  return JSON.parse(new URLSearchParams(text).get("payload")!) as Record<string, unknown>;
}

function hmac(algorithm: "sha1" | "sha256", secret: string, body: Buffer): string {
  return `${algorithm}=${createHmac(algorithm, secret).update(body).digest("hex")}`;
}

describe.each([
  { contentType: "json", mediaType: "application/json" },
  { contentType: "form", mediaType: "application/x-www-form-urlencoded" },
])("signed $contentType deliveries", ({ contentType, mediaType }) => {
  let receiver: Receiver;
  let arrived: Received[];

  beforeAll(async () => {
    receiver = await startReceiver();
    const token = await hookToken(t.server.db, "octocat");
    await createHook(t.api, token, "repos/octocat/hello-world", { config: { url: receiver.url, content_type: contentType, secret: SECRET }, events: ["push", "issues"] });
    await simulate(t.api, "push", { params: { commits: "2", message: "Fix the thing ✓ — \"quoted\" & <tagged>" } });
    await simulate(t.api, "issues", { params: { title: "Ünïcödé title & more" } });
    await receiver.until((r) => r.length >= 3);
    arrived = receiver.received.slice(0, 3);
  }, ceiling(60_000));
  afterAll(() => receiver?.close());

  it("sends ping, push and issues with the contract's headers", () => {
    expect(arrived.map((r) => r.event)).toEqual(["ping", "push", "issues"]);
    for (const r of arrived) {
      expect(r.headers["content-type"]).toBe(mediaType);
      expect(r.headers["user-agent"]).toBe(USER_AGENT);
      expect(r.headers["user-agent"]).toMatch(/^Service-Hookshot\/[0-9a-f]{7}$/);
      expect(r.headers["x-service-delivery"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(new Set(arrived.map((r) => r.guid)).size).toBe(3);
  });

  it("signs the exact bytes received with sha1 and sha256", () => {
    for (const r of arrived) {
      expect(r.headers["x-hub-signature"]).toBe(hmac("sha1", SECRET, r.body));
      expect(r.headers["x-hub-signature-256"]).toBe(hmac("sha256", SECRET, r.body));
    }
    if (contentType === "form") for (const r of arrived) expect(r.body.toString("utf8")).toMatch(/^payload=/);
  });

  it("sends bodies that validate against the webhook schemas", () => {
    for (const r of arrived) {
      const result = validateWebhook(r.event, payloadOf(r));
      expect(result.valid ? [] : result.errors, `${r.event} payload`).toEqual([]);
    }
    expect(payloadOf(arrived[1]!)).toMatchObject({ ref: "refs/heads/main", pusher: expect.any(Object) });
    expect(payloadOf(arrived[2]!)).toMatchObject({ action: "opened", issue: { title: "Ünïcödé title & more" } });
  });

  it("is accepted by the generated receiver with the secret, and refused with a wrong one", async () => {
    const right = createWebhookReceiver({ secret: SECRET });
    const seen: string[] = [];
    right.onAny((event) => void seen.push(event));
    const wrong = createWebhookReceiver({ secret: "not the secret" });
    for (const r of arrived) {
      expect((await right.receive({ body: r.body, headers: r.headers })).status).toBe(200);
      const refused = await wrong.receive({ body: r.body, headers: r.headers });
      expect(refused.status).toBe(401);
      expect(refused.body.message).toBe("Signature does not match the payload");
    }
    expect(seen).toEqual(["ping", "push", "issues"]);
  });
});

describe("a hook without a secret", () => {
  it("gets no signature headers", async () => {
    const receiver = await startReceiver();
    try {
      const token = await hookToken(t.server.db, "octocat");
      await createHook(t.api, token, "repos/octocat/hello-world", { config: { url: receiver.url }, events: ["watch"] });
      await simulate(t.api, "watch", { actor: "monalisa" });
      await receiver.until((r) => r.length >= 2);
      expect(receiver.received.map((r) => r.event)).toEqual(["ping", "watch"]);
      for (const r of receiver.received) {
        expect(r.headers).not.toHaveProperty("x-hub-signature");
        expect(r.headers).not.toHaveProperty("x-hub-signature-256");
        expect(r.headers["content-type"]).toBe("application/json");
      }
    } finally {
      await receiver.close();
    }
  }, ceiling(30_000));
});
