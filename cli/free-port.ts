/** Asks the OS for a free loopback port, for tools (like Prism) that cannot take `--port 0`. */
import { createServer } from "node:net";

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
 * Resolves when `port` on `host` can be listened on, else rejects with the listen error
 * (EADDRINUSE, EACCES, EADDRNOTAVAIL): a child such as Prism that cannot listen says so only in
 * fragments of its help, so the caller checks first and reports it in one line.
 */
export function checkPortFree(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, host, () => server.close(() => resolve()));
  });
}
