/**
 * In `public` egress mode the delivery log keeps only the status and headers of a failed answer,
 * never its body (DECISIONS: Hook egress): a failed answer may come from a service inside the
 * network the policy keeps hooks out of. `public` refuses loopback at connect, and tests only
 * reach loopback, so the attempt goes through a pool of the test's own (the route's dispatcher,
 * which the connect-time check does not apply to) while the body rule, which reads the policy,
 * is the one the worker runs.
 */
import { createServer, type Server } from "node:http";
import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendAttempt } from "../../reference/deliveries/send.ts";

let server: Server;
let base: string;
const pool = new Agent();

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader("x-internal", "yes");
    if (req.url === "/fail") {
      res.statusCode = 500;
      res.end("internal secrets: db password hunter2");
    } else {
      res.end("thanks");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await pool.close();
  await new Promise((resolve) => server.close(resolve));
});

const attempt = (path: string, egress: "local" | "public") =>
  sendAttempt({ url: `${base}${path}`, headers: { "content-type": "application/json" }, body: "{}", contentType: "application/json", fresh: true, insecure: false }, 5_000, undefined, { egress, dispatcher: pool });

describe("the body of an answer in the delivery log, by egress mode", () => {
  it("public: a failed answer keeps its status and headers, not its body", async () => {
    const outcome = await attempt("/fail", "public");
    expect(outcome.statusCode).toBe(500);
    expect(outcome.status).toBe("Invalid HTTP Response: 500");
    expect(outcome.responseHeaders["x-internal"]).toBe("yes");
    expect(outcome.responseBody).toBeNull();
  });

  it("public: a successful answer keeps its body", async () => {
    const outcome = await attempt("/ok", "public");
    expect(outcome.statusCode).toBe(200);
    expect(outcome.responseBody).toBe("thanks");
  });

  it("local: a failed answer keeps its body (local development reads it)", async () => {
    const outcome = await attempt("/fail", "local");
    expect(outcome.statusCode).toBe(500);
    expect(outcome.responseBody).toBe("internal secrets: db password hunter2");
  });
});
