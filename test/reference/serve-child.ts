/**
 * `service-contract serve` as a child process for the delivery tests that kill it: started with
 * a data folder (or a PostgreSQL URL), the admin endpoint on, and a delivery schedule from the
 * SERVICE_CONTRACT_DELIVERIES environment variable; resolves once it printed its ready line.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { cliBin, repoRoot } from "../cli/run-cli.ts";
import { startCliInProcess } from "../cli/in-process.ts";
import type { DeliveryOptions } from "../../reference/deliveries/options.ts";
import { ADMIN_TOKEN } from "./deliveries-fixtures.ts";
import { ceiling } from "../ceilings.ts";

export interface ServeChild {
  api: string;
  child: ChildProcess;
  stderr(): string;
  exited: Promise<number | null>;
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<number | null>;
}

/** The variable's JSON: schedule keys at the top level. */
export function deliveriesEnv(options: DeliveryOptions): string {
  const { schedule, ...rest } = options;
  return JSON.stringify({ ...schedule, ...rest });
}

function serveArgs(place: { dataDir: string } | { databaseUrl: string }): string[] {
  const args = ["serve", "--port", "0", "--auth-port", "0", "--seed", "demo", "--simulate", "--quiet", "--no-history"];
  if ("dataDir" in place) args.push("--data-dir", place.dataDir);
  else args.push("--database-url", place.databaseUrl);
  return args;
}

export async function startServe(place: { dataDir: string } | { databaseUrl: string }, deliveries: DeliveryOptions): Promise<ServeChild> {
  const args = [cliBin, ...serveArgs(place)];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, SERVICE_CONTRACT_ADMIN_TOKEN: ADMIN_TOKEN, SERVICE_CONTRACT_DELIVERIES: deliveriesEnv(deliveries) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const ready = await new Promise<{ api: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve: no ready line; stderr:\n${stderr}`)), ceiling(60_000));
    createInterface({ input: child.stdout! }).once("line", (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as { api: string });
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before it was ready; stderr:\n${stderr}`)));
  });
  return {
    api: ready.api,
    child,
    stderr: () => stderr,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** `serve` through the CLI's `main` in this process: the same command, options and environment. */
export interface ServeInProcess {
  api: string;
  stderr(): string;
  /** Its SIGTERM handler, then main's exit code (the binary's); again after the end: the same code. */
  stop(): Promise<number | null>;
}

/**
 * startServe's server without its process (test/cli/in-process.ts), for a test whose subject is
 * what the server does (deliveries, feeds), not its process (a kill, a lock held by another pid):
 * no start of Node, the compiled modules and a PGlite of its own. Give it a new data folder or
 * database, or one this process made (a child may use it in between): one a child made holds
 * another secret key than this process seals with (hooks/secret-box.ts). Only one at a time, and
 * no other in-process run while it runs.
 */
export async function startServeInProcess(place: { dataDir: string } | { databaseUrl: string }, deliveries: DeliveryOptions): Promise<ServeInProcess> {
  const run = startCliInProcess(serveArgs(place), { env: { SERVICE_CONTRACT_ADMIN_TOKEN: ADMIN_TOKEN, SERVICE_CONTRACT_DELIVERIES: deliveriesEnv(deliveries) } });
  const ready = JSON.parse(await run.firstLine) as { api: string };
  let stopped: Promise<number | null> | undefined;
  return {
    api: ready.api,
    stderr: run.stderr,
    stop() {
      if (!stopped) {
        run.signal("SIGTERM");
        stopped = run.done.then((r) => r.code);
      }
      return stopped;
    },
  };
}

/** A token of octocat's through the authorizations API (the child's database is its own). */
export async function tokenThroughApi(api: string, scopes: string[]): Promise<string> {
  const res = await fetch(`${api}/authorizations/clients/demo-client-id-0001/deliveries-test-${Date.now()}`, {
    method: "PUT",
    headers: { authorization: `Basic ${Buffer.from("octocat:octocat-demo-password").toString("base64")}`, "content-type": "application/json" },
    body: JSON.stringify({ client_secret: "demo-client-secret-0001-keep-it-private", scopes }),
  });
  if (res.status !== 201) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}
