/**
 * Test support for the client: a real node:http server on a loopback port that records every
 * request and answers through a per-test handler, and a fake clock that advances instantly and
 * remembers every sleep it was asked for.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Clock } from "../../runtime/client/index.ts";

export interface Recorded {
  method: string;
  url: URL;
  headers: IncomingMessage["headers"];
  body: string;
  /** Fake-clock time when the request arrived (0 when no clock was attached). */
  at: number;
}

export type Handler = (req: Recorded, res: ServerResponse) => void;

export interface LocalServer {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler, clock?: Clock): Promise<LocalServer> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const recorded: Recorded = {
        method: req.method ?? "",
        url: new URL(req.url ?? "/", "http://127.0.0.1"),
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: clock?.now() ?? 0,
      };
      requests.push(recorded);
      handler(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | number> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(text);
}

export interface FakeClock extends Clock {
  sleeps: number[];
  advance(ms: number): void;
}

/** Starts at `start` ms; `sleep` advances time by the requested amount and returns at once. */
export function fakeClock(start = Date.UTC(2025, 0, 1)): FakeClock {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

export function activityEvent(id: string): Record<string, unknown> {
  return {
    id,
    type: "WatchEvent",
    public: true,
    payload: { action: "started" },
    repo: { id: 1, name: "octocat/hello", url: "https://api.service.example/repos/octocat/hello" },
    actor: { id: 1, login: "octocat", gravatar_id: "", avatar_url: "https://avatars.example/1", url: "https://api.service.example/users/octocat" },
    created_at: "2025-01-01T00:00:00Z",
  };
}
