/**
 * Small misbehaving targets on 127.0.0.1 for the tests of what a target cannot do to the suite
 * (conformance/README.md, "What a target cannot do to the suite"): each answers every request
 * with one kind of abuse, generated as it streams — never allocated whole — and bounded in count,
 * so a client that does not stop reading still ends. Each counts the bytes it sent, so a test can
 * see the suite hung up early.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

export type Abuse = "gzip-bomb" | "gibibyte" | "endless-chunked" | "forty-mb" | "burst-then-trickle";

export interface HostileServer {
  url: string;
  /** Bytes written to sockets so far (on the wire: compressed for the bomb). */
  sent(): number;
  /** Requests answered (or being answered). */
  requests(): number;
  /** Resolves when a trickle has sent its burst and started trickling (burst-then-trickle). */
  trickling: Promise<void>;
  close(): Promise<void>;
}

const MB = 1024 * 1024;
/** One gzip member of 16 MB of zeros (~16 KB): members repeat to make a stream of any decoded size. */
let bombMember: Buffer | undefined;
const member = () => (bombMember ??= gzipSync(Buffer.alloc(16 * MB), { level: 9 }));
/** 64 KB of text, reused for every chunk of a big body. */
const CHUNK = Buffer.alloc(64 * 1024, "abcdefgh");

/** Writes `chunk` up to `times` times, honouring back-pressure, until the client goes away. */
function pump(res: ServerResponse, chunk: Buffer, times: number, count: (n: number) => void): void {
  let i = 0;
  const more = (): void => {
    while (i < times && !res.destroyed) {
      i++;
      count(chunk.length);
      if (!res.write(chunk)) {
        res.once("drain", more);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  res.on("close", () => (i = times));
  more();
}

export async function startHostileServer(abuse: Abuse, options: { trickleBytes?: number } = {}): Promise<HostileServer> {
  let sent = 0;
  let requests = 0;
  const count = (n: number) => (sent += n);
  let startedTrickle: () => void = () => {};
  const trickling = new Promise<void>((resolve) => (startedTrickle = resolve));
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    requests++;
    // `/` answers small, so the reachability check before a run sees a server that answers.
    if (req.url === "/") return void res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    switch (abuse) {
      case "gzip-bomb":
        // 1024 members: 16 GiB of zeros decoded, about 16 MB on the wire.
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        return pump(res, member(), 1024, count);
      case "gibibyte":
        res.writeHead(200, { "content-type": "application/json", "content-length": String(1024 * MB) });
        return pump(res, CHUNK, (1024 * MB) / CHUNK.length, count);
      case "endless-chunked":
        // No length: chunked until the client goes (bounded at 4 GiB all the same).
        res.writeHead(200, { "content-type": "application/json" });
        return pump(res, CHUNK, (4096 * MB) / CHUNK.length, count);
      case "forty-mb":
        res.writeHead(200, { "content-type": "application/json", "content-length": String(40 * MB) });
        return pump(res, CHUNK, (40 * MB) / CHUNK.length, count);
      case "burst-then-trickle": {
        // The target's pace, not a test's time limit (those are ceiling(…), test/ceilings.ts).
        const TRICKLE_EVERY_MS = 1000;
        // A burst (headers and 64 KB), then one byte a second, for at most `trickleBytes` seconds.
        res.writeHead(200, { "content-type": "application/json" });
        res.write(CHUNK);
        count(CHUNK.length);
        let left = options.trickleBytes ?? 120;
        const timer = setInterval(() => {
          if (res.destroyed || left-- <= 0) {
            clearInterval(timer);
            timers.delete(timer);
            if (!res.destroyed) res.end();
            return;
          }
          res.write(" ");
          count(1);
        }, TRICKLE_EVERY_MS);
        timers.add(timer);
        startedTrickle();
        return;
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent: () => sent,
    requests: () => requests,
    trickling,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearInterval(t);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
