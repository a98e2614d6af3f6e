/**
 * The webhook receiver suite and `webhooks send` over real HTTP. The generated receiver helper
 * (createWebhookReceiver behind webhookHandler) passes every RECEIVER case; a sloppy receiver —
 * no signature check, a crash on events it has no handler for — fails exactly the signature cases
 * and the unknown-event case. Through the binary: `webhooks send` delivers what the reference
 * sends (headers, signatures over the bytes received) and exits 0/1/2; `conformance --receiver`
 * exits 0 for the generated receiver, 1 for the sloppy one, 2 for one that does not answer.
 */
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookReceiver, webhookHandler } from "../../../generated/client/index.ts";
import { RECEIVER_CASES, runReceiverSuite } from "../../../conformance/consumers/receiver/index.ts";
import type { RunSummary } from "../../../conformance/core/types.ts";
import { USER_AGENT } from "../../../reference/deliveries/request.ts";
import { runCli, runCliInProcess } from "../../cli/run-cli.ts";
import { ceiling } from "../../ceilings.ts";

const SECRET = "It's a Secret to Everybody";

interface Arrival {
  headers: Record<string, string | string[] | undefined>;
  rawHeaderNames: string[];
  body: Buffer;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

/** What most first receivers look like: parse, dispatch by event name, never check a signature. */
function sloppyHandler(req: IncomingMessage, res: ServerResponse): void {
  const handlers: Record<string, (payload: Record<string, unknown>) => void> = Object.fromEntries(
    ["commit_comment", "create", "delete", "deployment", "deployment_status", "fork", "gollum", "issue_comment", "issues", "member", "membership", "page_build", "ping", "public", "pull_request", "pull_request_review_comment", "push", "release", "repository", "status", "team_add", "watch"].map((e) => [e, () => undefined]),
  );
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    try {
      const text = Buffer.concat(chunks).toString("utf8");
      const json = String(req.headers["content-type"]).startsWith("application/x-www-form-urlencoded") ? new URLSearchParams(text).get("payload")! : text;
      handlers[String(req.headers["x-service-event"])]!(JSON.parse(json) as Record<string, unknown>); // TypeError on an unknown event
      res.writeHead(200).end("ok");
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
}

const servers: Server[] = [];
let generatedUrl: string;
let sloppyUrl: string;
let recorderUrl: string;
const arrivals: Arrival[] = [];

beforeAll(async () => {
  const receiver = createWebhookReceiver({ secret: SECRET });
  receiver.on("push", () => undefined).on("issues", () => undefined).on("ping", () => undefined);
  const generated = await listen(webhookHandler(receiver));
  const sloppy = await listen(sloppyHandler);
  const recorder = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      arrivals.push({ headers: req.headers, rawHeaderNames: req.rawHeaders.filter((_, i) => i % 2 === 0), body: Buffer.concat(chunks) });
      res.writeHead(503, { "content-type": "text/plain" }).end("busy, try later");
    });
  });
  servers.push(generated.server, sloppy.server, recorder.server);
  ({ url: generatedUrl } = generated);
  ({ url: sloppyUrl } = sloppy);
  ({ url: recorderUrl } = recorder);
});
afterAll(async () => {
  for (const s of servers) await new Promise((resolve) => s.close(resolve));
});

const idsWith = (s: RunSummary, status: string) => s.results.filter((r) => r.status === status).map((r) => r.id);

describe("conformance --receiver (in process)", () => {
  it("the generated receiver helper passes every case, form deliveries included when it says it takes them", async () => {
    const summary = await runReceiverSuite({ url: generatedUrl, secret: SECRET, contentTypes: ["json", "form"] });
    const failures = summary.results.filter((r) => r.status === "failed").map((r) => `${r.id}: ${r.failure?.message}`);
    expect(failures).toEqual([]);
    expect(summary.counts).toEqual({ passed: RECEIVER_CASES.length, failed: 0, skipped: 0 });
  }, ceiling(60_000));

  it("a receiver that takes JSON only (as @octokit/webhooks' middleware does) passes by default: form is the contract's choice, not the seed's", async () => {
    const jsonOnly = await listen((req, res) => {
      if (!String(req.headers["content-type"]).startsWith("application/json")) {
        req.resume();
        res.writeHead(415).end("JSON only");
        return;
      }
      webhookHandler(createWebhookReceiver({ secret: SECRET }))(req, res);
    });
    servers.push(jsonOnly.server);
    const summary = await runReceiverSuite({ url: jsonOnly.url, secret: SECRET });
    expect(idsWith(summary, "failed")).toEqual([]);
    expect(summary.results.find((r) => r.id === "RECEIVER-EVENTS-002")).toMatchObject({ status: "skipped", reason: expect.stringMatching(/^the receiver takes JSON deliveries only \(the seed's\)/) });
    const withForm = await runReceiverSuite({ url: jsonOnly.url, secret: SECRET, contentTypes: ["json", "form"], only: "RECEIVER-EVENTS-*" });
    expect(idsWith(withForm, "failed")).toEqual(["RECEIVER-EVENTS-002"]);
  }, ceiling(30_000));

  it("a receiver without a signature check that crashes on unknown events fails exactly those cases", async () => {
    const summary = await runReceiverSuite({ url: sloppyUrl, secret: SECRET });
    expect(idsWith(summary, "failed")).toEqual([
      "RECEIVER-SIGNATURE-001",
      "RECEIVER-SIGNATURE-002",
      "RECEIVER-SIGNATURE-003",
      "RECEIVER-SIGNATURE-004",
      "RECEIVER-SIGNATURE-005",
      "RECEIVER-SIGNATURE-006",
      "RECEIVER-TOLERANCE-001",
    ]);
    const byId = new Map(summary.results.map((r) => [r.id, r]));
    expect(byId.get("RECEIVER-SIGNATURE-001")!.failure).toMatchObject({ message: expect.stringMatching(/^the receiver accepted a delivery without/), expected: "4xx (refused)" });
    expect(byId.get("RECEIVER-TOLERANCE-001")!.failure?.actual).toMatch(/^500 TypeError/);
    // The curl line replays the forged delivery, headers and body.
    expect(byId.get("RECEIVER-SIGNATURE-002")!.failure?.curl).toMatch(/^curl -i -X POST .*'x-hub-signature-256: sha256=[0-9a-f]{64}'.*--data-raw/);
  }, ceiling(60_000));
});

describe("the binary", () => {
  const dir = mkdtempSync(join(tmpdir(), "sc-receiver-"));

  it("webhooks send: delivers the contract's example with the reference's headers, signed over the bytes received; exit 1 on a non-2xx", async () => {
    const r = await runCli(["webhooks", "send", "issues", "--action", "closed", "--content-type", "form", "--url", recorderUrl, "--secret", SECRET]);
    expect(r.stdout).toMatch(/503 Invalid HTTP Response: 503 in \d+ ms\nbusy, try later/);
    expect(r.code).toBe(1);
    const got = arrivals.at(-1)!;
    expect(got.rawHeaderNames.filter((n) => /^(x-|user-agent|content-type)/i.test(n))).toEqual(["X-Service-Event", "X-Service-Delivery", "User-Agent", "Content-Type", "X-Hub-Signature", "X-Hub-Signature-256"]);
    expect(got.headers).toMatchObject({ "x-service-event": "issues", "user-agent": USER_AGENT, "content-type": "application/x-www-form-urlencoded" });
    expect(got.headers["x-service-delivery"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(got.headers["x-hub-signature-256"]).toBe(`sha256=${createHmac("sha256", SECRET).update(got.body).digest("hex")}`);
    expect(got.headers["x-hub-signature"]).toBe(`sha1=${createHmac("sha1", SECRET).update(got.body).digest("hex")}`);
    const payload = JSON.parse(new URLSearchParams(got.body.toString("utf8")).get("payload")!) as { action: string };
    expect(payload.action).toBe("closed");
  }, ceiling(60_000));

  it("webhooks send: 0 when the receiver accepts, 2 for a payload that breaks the contract (with the errors), 1 when sent anyway and refused", async () => {
    const bad = join(dir, "bad-push.json");
    writeFileSync(bad, JSON.stringify({ ...JSON.parse(readFileSync("spec/examples/webhooks/push/valid-branch-push.json", "utf8")), pusher: "octocat" }));
    // The binary where the process matters (a delivery, stdin); the two exit-2 checks call `main`
    // in process, which prints and returns exactly what the binary does.
    const [ok, refused, forced, usage] = await Promise.all([
      runCli(["webhooks", "send", "push", "--url", generatedUrl, "--secret", SECRET]),
      runCliInProcess(["webhooks", "send", "push", "--payload", bad, "--url", generatedUrl, "--secret", SECRET]),
      runCli(["webhooks", "send", "push", "--payload", "-", "--no-validate", "--url", generatedUrl, "--secret", SECRET], { input: readFileSync(bad, "utf8") }),
      runCliInProcess(["webhooks", "send", "push", "--url", generatedUrl, "--content-type", "xml"]),
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^200 OK in \d+ ms\n\{"message":"OK"\}/m);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/does not match the contract's push payload:\n {2}\/pusher: must be object/);
    expect(forced.code).toBe(1);
    expect(forced.stdout).toMatch(/^422 Invalid HTTP Response: 422/m);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--content-type must be json or form/);
  }, ceiling(60_000));

  it("conformance --receiver: 0 for the generated receiver (JSON report), 1 for the sloppy one, 2 for one that does not answer", async () => {
    const out = join(dir, "report");
    // The binary for the full run with its report; `main` in process for the exit 1 and exit 2
    // cases (the same code, the same printed lines and code as the binary's).
    const [good, sloppy, down] = await Promise.all([
      runCli(["conformance", "--receiver", generatedUrl, "--secret", SECRET, "--content-types", "json,form", "--reporter", "console,json", "--out", out]),
      runCliInProcess(["conformance", "--receiver", sloppyUrl, "--secret", SECRET, "--only", "RECEIVER-SIGNATURE-*"]),
      runCliInProcess(["conformance", "--receiver", "http://127.0.0.1:1/hook", "--secret", SECRET]),
    ]);
    expect(good.code, good.stdout + good.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as RunSummary;
    expect(report.results.map((r) => r.id)).toEqual(RECEIVER_CASES.map((c) => c.id));
    expect(report.results.every((r) => r.area === "receiver" && r.status === "passed")).toBe(true);
    expect(sloppy.code).toBe(1);
    expect(sloppy.stdout).toMatch(/RECEIVER-SIGNATURE-004/);
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/the receiver does not answer/);
    const bad = await runCliInProcess(["conformance", "--receiver", generatedUrl, "--secret", SECRET, "--content-types", "json,xml"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('service-contract: --content-types takes json, form or both (comma-separated), got "json,xml"\n');
  }, ceiling(90_000));
});
