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

/** What each listen error means, and what to give instead. */
const LISTEN_HINTS: Record<string, (host: string, flag: string) => string> = {
  EADDRINUSE: (_host, flag) => `in use by another process; give another ${flag}, or 0 for a free one`,
  EACCES: (_host, flag) => `not allowed (ports below 1024 need privileges); give another ${flag}, or 0 for a free one`,
  EADDRNOTAVAIL: (host) => `${host} is not an address of this machine; --host takes one of its addresses (127.0.0.1, 0.0.0.0 for all)`,
  ENOTFOUND: (host) => `${host} does not resolve; --host takes an address of this machine (127.0.0.1, 0.0.0.0 for all)`,
  EAI_AGAIN: (host) => `${host} does not resolve; --host takes an address of this machine (127.0.0.1, 0.0.0.0 for all)`,
};

/**
 * Resolves when `port` on `host` can be listened on, else throws a UsageError naming the listen
 * error and what to give instead (EADDRINUSE, EACCES, EADDRNOTAVAIL). Checked before the slow
 * part of a start (a database made and seeded, a Prism child that would say it only in
 * fragments of its help), so the refusal is quick, one line, and leaves nothing behind. Port 0
 * is checked too: it is always free, but the host may not be an address of this machine.
 */
export async function checkCanListen(host: string, port: number, flag: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, host, () => server.close(() => resolve()));
  }).catch((error: NodeJS.ErrnoException) => {
    const hint = error.code ? LISTEN_HINTS[error.code]?.(host, flag) : undefined;
    throw new UsageError(`cannot listen on ${host} port ${port} (${flag}): ${error.code ?? error.message}${hint ? `: ${hint}` : ""}`);
  });
}
