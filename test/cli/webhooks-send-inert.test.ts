/**
 * `webhooks send` prints a receiver's answer, a stranger's text (issue 41): C1 controls (CSI
 * U+009B drives a terminal as ESC [ does) and bidi overrides and isolates (which reorder what is
 * shown) reach the terminal only as visible `\uXXXX`, by the suite's own rule
 * (conformance/core/inert-text.ts). The code before replaced C0 controls only: 5 C1 controls and 4
 * bidi characters of one answer came through.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliInProcess } from "./in-process.ts";

const HOSTILE = "ok\u009b2J\u009d0;pwned\u0007\u0085\u0090\u009c \u202eevil\u202c \u2066x\u2069 \u001b[31mred";
let url = "";
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(418, { "content-type": "text/plain; charset=utf-8" }).end(HOSTILE));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("webhooks send prints the receiver's answer inert", () => {
  it("shows C1 controls, ESC and bidi characters as \\uXXXX, never as themselves", async () => {
    const r = await runCliInProcess(["webhooks", "send", "ping", "--url", url, "--secret", "s3cret"]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(r.stdout).toContain("ok\\u009b2J\\u009d0;pwned\\u0007\\u0085\\u0090\\u009c \\u202eevil\\u202c \\u2066x\\u2069 \\u001b[31mred");
  });
});
