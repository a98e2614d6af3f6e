/** Asks the OS for a free loopback port, for tools (like Prism) that cannot take `--port 0`. */
import { createServer } from "node:net";
import { UsageError } from "./exit-codes.ts";

export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Resolves when `port` on `host` can be listened on, else throws a UsageError naming the listen
 * error (EADDRINUSE, EACCES, EADDRNOTAVAIL). Checked before the slow part of a start (a database,
 * a Prism child that would say it only in fragments of its help), so the refusal is quick and
 * one line. Port 0 is always free.
 */
export async function checkCanListen(host: string, port: number, flag: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, host, () => server.close(() => resolve()));
  }).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot listen: ${flag} ${port} on ${host}: ${error.code ?? error.message}`);
  });
}
