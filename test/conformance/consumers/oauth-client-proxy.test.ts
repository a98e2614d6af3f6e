/**
 * The OAuth-client suite's authorization server listens on a local port any process can reach;
 * its recording proxy must not be a way to whatever the CI machine reaches (issue 34). Raw
 * sockets send what a forward-proxy client would — absolute-form GET and POST, CONNECT, a `//host`
 * path — and a second local server checks that nothing of it arrives; an oversize body is 413.
 * An ordinary origin-form request still reaches its one upstream (here a small recording server in
 * the reference's place: what is tested is the proxy, not the reference).
 */
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordingProxy, type TokenRequest } from "../../../conformance/consumers/oauth-client/authorization-server.ts";

/** A local server that records what reaches it. */
async function recorder(answer: string): Promise<{ server: Server; url: string; reached: string[] }> {
  const reached: string[] = [];
  const server = createServer((req, res) => {
    reached.push(`${req.method} ${req.url}`);
    req.resume();
    req.on("end", () => res.end(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, reached };
}

let upstream: Awaited<ReturnType<typeof recorder>>;
let other: Awaited<ReturnType<typeof recorder>>;
let proxy: Server;
let proxyUrl: string;
const tokenRequests: TokenRequest[] = [];

/** Sends `raw` on a fresh connection and returns the status line answered ("" when none came within 5 s). */
function exchange(url: string, raw: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = "";
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on("data", (d: Buffer) => (answer += d.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(answer.split("\r\n")[0] ?? "");
    });
    socket.on("connect", () => socket.write(raw));
  });
}

beforeAll(async () => {
  upstream = await recorder("the reference's web host");
  other = await recorder("a service the CI machine reaches");
  proxy = recordingProxy(() => upstream.url, tokenRequests);
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of [proxy, upstream?.server, other?.server]) {
    s?.closeAllConnections();
    await new Promise((resolve) => s?.close(resolve));
  }
});

describe("the OAuth-client suite's recording proxy is no forward proxy", () => {
  it("refuses absolute-form requests, CONNECT and //host paths, and none reaches another server", async () => {
    const host = new URL(other.url).host;
    const asked = {
      absoluteGet: `GET ${other.url}/secret HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      absolutePost: `POST ${other.url}/write HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello`,
      connect: `CONNECT ${host} HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
      doubleSlash: `GET //${host}/secret HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      asterisk: `OPTIONS * HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    };
    const answers: Record<string, string> = {};
    for (const [name, raw] of Object.entries(asked)) answers[name] = await exchange(proxyUrl, raw);
    expect(answers).toEqual({
      absoluteGet: expect.stringMatching(/^HTTP\/1\.1 400 /),
      absolutePost: expect.stringMatching(/^HTTP\/1\.1 400 /),
      connect: expect.stringMatching(/^HTTP\/1\.1 405 /),
      doubleSlash: expect.stringMatching(/^HTTP\/1\.1 400 /),
      asterisk: expect.stringMatching(/^HTTP\/1\.1 400 /),
    });
    expect(other.reached).toEqual([]);
    expect(upstream.reached).toEqual([]);
  });

  it("still forwards origin-form requests to its upstream, and records token requests", async () => {
    const host = new URL(proxyUrl).host;
    expect(await exchange(proxyUrl, `GET /login/oauth/authorize?client_id=c HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 200 /);
    const form = "client_id=c&code=x";
    expect(await exchange(proxyUrl, `POST /login/oauth/access_token HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\nConnection: close\r\n\r\n${form}`)).toMatch(/^HTTP\/1\.1 200 /);
    expect(upstream.reached).toEqual(["GET /login/oauth/authorize?client_id=c", "POST /login/oauth/access_token"]);
    expect(tokenRequests.map((t) => t.fields)).toEqual([{ client_id: "c", code: "x" }]);
    expect(other.reached).toEqual([]);
  });

  it("refuses request bodies over a megabyte with 413, declared or not", async () => {
    const host = new URL(proxyUrl).host;
    const big = "a".repeat(2 * 1024 * 1024);
    expect(await exchange(proxyUrl, `POST /login/oauth/access_token HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${big.length}\r\n\r\n${big}`)).toMatch(/^HTTP\/1\.1 413 /);
    const chunked = `${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`;
    expect(await exchange(proxyUrl, `POST /login/oauth/access_token HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}`)).toMatch(/^HTTP\/1\.1 413 /);
    expect(tokenRequests).toHaveLength(1); // the one above: the oversize ones were not recorded
  });
});
