/**
 * The consumer suites behind `service-contract conformance`: `--receiver URL --secret S` checks a
 * webhook receiver (the suite plays the service and sends it deliveries), `--oauth-client
 * --profile FILE` checks an OAuth web-flow client (the reference server plays the authorization
 * server; the profile says how to start the client's sign-in and how to tell its outcome). The
 * same reporters and exit codes as the server suite; target flags of the server suite are usage
 * errors here, and so is a receiver (or a client's start URL) that does not answer at all.
 */
import { existsSync } from "node:fs";
import { UsageError } from "../exit-codes.ts";
import type { ProgressEvent } from "../../conformance/run/runner.ts";
import type { RunSummary } from "../../conformance/core/types.ts";

export interface ConsumerOptions {
  receiver?: string;
  contentTypes?: string;
  secret?: string;
  oauthClient?: boolean;
  profile?: string;
  baseUrl?: string;
  authUrl?: string;
  reference?: boolean;
}

export interface SuiteSettings {
  only?: string;
  skip?: string;
  timeoutMs: number;
  onProgress?: (event: ProgressEvent) => void;
}

function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** Usage errors before anything starts: the flags of one suite only, and what it needs. */
export function checkConsumerOptions(opts: ConsumerOptions): void {
  if (opts.receiver !== undefined && opts.oauthClient) throw new UsageError("--receiver and --oauth-client are two suites: run one at a time");
  const other = opts.receiver !== undefined ? (["baseUrl", "authUrl", "reference", "profile"] as const) : (["baseUrl", "authUrl", "reference", "receiver", "secret"] as const);
  const extra = other.filter((k) => opts[k] !== undefined && opts[k] !== false);
  if (extra.length > 0) throw new UsageError(`${opts.receiver !== undefined ? "--receiver" : "--oauth-client"} does not take ${extra.map(flagName).join(", ")}`);
  if (opts.contentTypes !== undefined && opts.receiver === undefined) throw new UsageError("--content-types goes with --receiver: the delivery content types your receiver takes");
  if (opts.receiver !== undefined) {
    let url: URL;
    try {
      url = new URL(opts.receiver);
    } catch {
      throw new UsageError(`--receiver must be an http(s) URL, got ${opts.receiver}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--receiver must be an http(s) URL, got ${opts.receiver}`);
    if (!opts.secret) throw new UsageError("--secret is required with --receiver: the secret your receiver checks signatures with");
  } else if (!opts.profile) {
    throw new UsageError("--profile is required with --oauth-client: how to start your client's sign-in and tell its outcome (conformance/README.md)");
  }
}

export async function runConsumerSuite(opts: ConsumerOptions, suite: SuiteSettings): Promise<RunSummary> {
  const { SelectionError } = await import("../../conformance/run/runner.ts");
  const { checkReachable } = await import("../../conformance/run/preflight.ts");
  try {
    if (opts.receiver !== undefined) {
      const down = await checkReachable([opts.receiver]);
      if (down.length > 0) throw new UsageError(`the receiver does not answer: ${down.map((u) => `${u.url} (${u.reason})`).join("; ")}`);
      const { runReceiverSuite, parseContentTypes } = await import("../../conformance/consumers/receiver/index.ts");
      let contentTypes;
      try {
        contentTypes = parseContentTypes(opts.contentTypes ?? "json");
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      return await runReceiverSuite({ url: opts.receiver, secret: opts.secret!, contentTypes, ...suite });
    }
    // The suite signs in through Chromium: without the driver or the browser every case would
    // fail the same way, so say it once.
    const { resolvePeer } = await import("../../generators/package-files.ts");
    resolvePeer("playwright-core", "the OAuth client suite's browser (--oauth-client)");
    const { DEFAULT_CHROMIUM } = await import("../../conformance/authorize/browser.ts");
    const chromium = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM;
    if (!existsSync(chromium)) throw new UsageError(`--oauth-client drives Chromium, and there is none at ${chromium}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`);
    const { runOAuthClientSuite, loadClientProfile, ClientProfileError } = await import("../../conformance/consumers/oauth-client/index.ts");
    let profile;
    try {
      profile = loadClientProfile(opts.profile!);
    } catch (error) {
      if (error instanceof ClientProfileError) throw new UsageError(error.message);
      throw error;
    }
    const down = await checkReachable([profile.startUrl]);
    if (down.length > 0) throw new UsageError(`the client does not answer at its startUrl: ${down.map((u) => `${u.url} (${u.reason})`).join("; ")}`);
    process.stderr.write("Starting the reference server as the authorization server (in-memory database, demo seed)…\n");
    return await runOAuthClientSuite({ profile, ...suite, onStarted: (urls) => process.stderr.write(`Authorization server: web host ${urls.auth}, API ${urls.api}\n`) });
  } catch (error) {
    if (error instanceof SelectionError) throw new UsageError(error.message);
    throw error;
  }
}
