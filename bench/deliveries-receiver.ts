/**
 * The loopback receiver of the delivery benchmark (bench/deliveries.ts), in a process of its own
 * so that receiving does not take the sender's CPU: a bare `node:http` server answering 200 to
 * every POST. Over IPC it reports when an expected number of requests has arrived, and the
 * arrival time of every body that carries a `bench-<n>` marker (the latency run).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const now = () => performance.timeOrigin + performance.now();
const MARK = /bench-(\d+)/;

let count = 0;
let expected = Infinity;
const marks = new Map<number, number>();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const at = now();
    const match = MARK.exec(Buffer.concat(chunks).toString("latin1"));
    if (match && !marks.has(Number(match[1]))) marks.set(Number(match[1]), at);
    res.writeHead(200, { "content-type": "text/plain", "content-length": "2" }).end("ok");
    if (++count === expected) process.send!({ type: "done", at });
  });
});
server.keepAliveTimeout = 30_000;

process.on("message", (m: { type: string; n?: number }) => {
  if (m.type === "expect") {
    count = 0;
    expected = m.n!;
    marks.clear();
    process.send!({ type: "expecting" });
  } else if (m.type === "marks") {
    process.send!({ type: "marks", marks: [...marks] });
  }
});
process.on("disconnect", () => process.exit(0));

server.listen(0, "127.0.0.1", () => {
  process.send!({ type: "ready", url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` });
});
