/**
 * The API host's server with the poll lane in front of Fastify (reference/http/lane-server.ts),
 * over real HTTP with stand-in lanes: what the lane answers never reaches the handler, what it
 * leaves does; a lane that throws costs the request nothing (the handler answers) and the
 * process nothing; and once the server is closing, the lane stands aside so the handler can tell
 * kept-alive pollers to let go.
 */
import { Agent, request } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { FastifyServerOptions } from "fastify";
import { serverWithLane } from "../../reference/http/lane-server.ts";
import type { PollLane } from "../../reference/http/poll-lane.ts";

let server: Server | undefined;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
afterEach(async () => {
  agent.destroy();
  server?.closeAllConnections();
  await new Promise((resolve) => (server?.listening ? server.close(resolve) : resolve(undefined)));
});

function lane(answer: PollLane["answer"]): PollLane {
  return { answer, answered: 0 };
}

async function serve(poll: PollLane, options: FastifyServerOptions = {}): Promise<string> {
  server = serverWithLane(poll)((req, res) => {
    const answer = () => res.writeHead(200, { "content-type": "text/plain" }).end("handler");
    if (req.url === "/slow") setTimeout(answer, 100);
    else answer();
  }, options);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function get(url: string, path = "/"): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    request(`${url}${path}`, { agent }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }));
    })
      .on("error", reject)
      .end();
  });
}

const notModified: PollLane["answer"] = (req, res) => {
  if (req.url !== "/poll") return false;
  res.writeHead(304, { etag: '"x"' }).end();
  return true;
};

describe("the API host's server", () => {
  it("sends what the lane answers, and gives the handler everything else", async () => {
    const url = await serve(lane(notModified));
    expect(await get(url, "/poll")).toMatchObject({ status: 304, body: "" });
    expect(await get(url, "/other")).toMatchObject({ status: 200, body: "handler" });
  });

  it("hands the request to the handler when the lane throws before answering", async () => {
    const url = await serve(
      lane(() => {
        throw new Error("lane bug");
      }),
    );
    expect(await get(url)).toMatchObject({ status: 200, body: "handler" });
    expect(await get(url)).toMatchObject({ status: 200, body: "handler" });
  });

  it("cuts the connection when the lane throws after writing, and goes on serving", async () => {
    const url = await serve(
      lane((req, res) => {
        if (req.url !== "/half") return false;
        res.writeHead(304);
        throw new Error("lane bug after the head");
      }),
    );
    await expect(get(url, "/half")).rejects.toThrow();
    expect(await get(url, "/other")).toMatchObject({ status: 200, body: "handler" });
  });

  it("stands aside once the server is closing: a kept-alive poller reaches the handler", async () => {
    const url = await serve(lane(notModified));
    expect((await get(url, "/poll")).status).toBe(304);
    // Closing drops idle connections at once; one busy at that moment stays open for its next requests.
    const busy = get(url, "/slow");
    await new Promise((resolve) => setTimeout(resolve, 20));
    server!.close();
    expect((await busy).status).toBe(200);
    expect(await get(url, "/poll")).toMatchObject({ status: 200, body: "handler" });
  });

  it("applies Fastify's connection settings from the options it is given", async () => {
    await serve(lane(notModified), { keepAliveTimeout: 72_000, requestTimeout: 9_000, connectionTimeout: 7_000, maxRequestsPerSocket: 50 });
    expect(server!.keepAliveTimeout).toBe(72_000);
    expect(server!.requestTimeout).toBe(9_000);
    expect(server!.timeout).toBe(7_000);
    expect(server!.maxRequestsPerSocket).toBe(50);
  });
});
