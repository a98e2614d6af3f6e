/** WebhookReceiver.receive without HTTP, against a tiny stand-in contract: the decision table of answers. */
import { describe, expect, it } from "vitest";
import { sign, WebhookReceiver, type WebhookContract } from "../../runtime/client/index.ts";

interface Payloads {
  push: { ref: string };
  ping: { zen: string };
}
const contract: WebhookContract = {
  events: ["ping", "push"],
  validate: (event, payload) =>
    event === "push" && typeof (payload as { ref?: unknown }).ref !== "string"
      ? { valid: false, errors: [{ path: "/ref", message: "is required" }] }
      : { valid: true, value: payload },
};
const body = JSON.stringify({ ref: "refs/heads/main" });
const headers = (extra: Record<string, string> = {}) => ({ "content-type": "application/json", "x-service-event": "push", "x-service-delivery": "d-1", ...extra });

describe("WebhookReceiver.receive", () => {
  it.each([
    ["no secret configured, unsigned", {}, headers(), body, 200],
    ["secret, signed", { secret: "s" }, headers({ "x-hub-signature-256": sign("s", body) }), body, 200],
    ["secret list, signed with the second", { secret: ["old", "s"] }, headers({ "x-hub-signature-256": sign("s", body) }), body, 200],
    ["secret, unsigned", { secret: "s" }, headers(), body, 401],
    ["secret, signed with sha1 but sha256 required", { secret: "s", requireSha256: true }, headers({ "x-hub-signature": sign("s", body, "sha1") }), body, 401],
    ["secret, signed with sha1 only (sha256 required by default)", { secret: "s" }, headers({ "x-hub-signature": sign("s", body, "sha1") }), body, 401],
    ["secret, signed with sha1 only, sha256 not required", { secret: "s", requireSha256: false }, headers({ "x-hub-signature": sign("s", body, "sha1") }), body, 200],
    ["invalid payload", {}, headers(), "{}", 422],
    ["invalid payload, validation off", { validate: false }, headers(), "{}", 200],
    ["form without payload field", {}, headers({ "content-type": "application/x-www-form-urlencoded" }), "other=1", 400],
    ["form with payload", {}, headers({ "content-type": "application/x-www-form-urlencoded; charset=utf-8" }), `payload=${encodeURIComponent(body)}`, 200],
    ["no content type", {}, { "x-service-event": "push" }, body, 415],
  ])("%s → %i", async (_, options, h, b, status) => {
    const receiver = new WebhookReceiver<Payloads>(contract, options).on("push", () => {});
    expect((await receiver.receive({ body: b, headers: h })).status).toBe(status);
  });

  it("passes the validated payload and the delivery to handlers, then onAny", async () => {
    const calls: string[] = [];
    const receiver = new WebhookReceiver<Payloads>(contract)
      .on("push", (p, d) => void calls.push(`push ${p.ref} ${d.id} ${d.contentType}`))
      .onAny((event) => void calls.push(`any ${event}`));
    const outcome = await receiver.receive({ body: Buffer.from(body), headers: new Headers(headers()) });
    expect(outcome).toMatchObject({ status: 200, event: "push", delivery: "d-1" });
    expect(calls).toEqual(["push refs/heads/main d-1 json", "any push"]);
  });

  it("refuses to register a handler for an event the contract does not have", () => {
    expect(() => new WebhookReceiver<Payloads>(contract).on("nope" as "push", () => {})).toThrow(TypeError);
    expect(() => new WebhookReceiver<Payloads>(contract, { secret: "" })).toThrow(TypeError);
  });
});
