/**
 * The feed poller. It keeps its own ETag so an unchanged feed costs a 304 (free against the rate
 * limit), waits at least `X-Poll-Interval` seconds between the starts of two requests (the
 * service may raise it under load and the contract says it must be obeyed), and hands the
 * callback only events whose `id` it has not handed over before.
 */
import type { BaseClient } from "./base-client.ts";
import { ResponseError } from "./errors.ts";
import type { ApiResponse, CallOptions, RequestParts } from "./types.ts";

export interface PollOptions {
  signal?: AbortSignal;
  /** Never poll more often than this, even if the service allows it. */
  minIntervalMs?: number;
  /** Interval when a response has no `X-Poll-Interval`. Default 60 s. */
  defaultIntervalMs?: number;
  /** Called for a failed poll; polling continues. Without it the first failure rejects `poll`. */
  onError?: (error: unknown) => void;
  /** How many event ids to remember for de-duplication. Default 3000 (ten full feed pages). */
  rememberIds?: number;
  call?: Omit<CallOptions, "signal" | "noCache">;
}

export type EventsCallback<E> = (events: E[], response: ApiResponse) => void | Promise<void>;

function pollIntervalMs(response: ApiResponse): number | undefined {
  const raw = response.rawHeaders.get("x-poll-interval");
  if (raw === null || !/^\s*\d+\s*$/.test(raw)) return undefined;
  return Number(raw) * 1000;
}

/** Resolves when `signal` aborts; rejects on the first failure unless `onError` is given. */
export async function poll<E>(client: BaseClient, operationId: string, parts: RequestParts, onEvents: EventsCallback<E>, options: PollOptions = {}): Promise<void> {
  const { signal, minIntervalMs = 0, defaultIntervalMs = 60_000, rememberIds = 3000 } = options;
  const seen = new Set<string>();
  let etag: string | undefined;
  let intervalMs = defaultIntervalMs;
  while (!signal?.aborted) {
    const started = client.clock.now();
    try {
      const headers = { ...parts.headers, ...(etag ? { "If-None-Match": etag } : {}) };
      const response = await client.call(operationId, { ...parts, headers }, { ...options.call, signal, noCache: true });
      intervalMs = pollIntervalMs(response) ?? intervalMs;
      if (response.status === 200) {
        etag = response.rawHeaders.get("etag") ?? undefined;
        const fresh = (Array.isArray(response.body) ? (response.body as E[]) : []).filter((event) => {
          const id = (event as { id?: unknown })?.id;
          if (id === undefined || id === null) return true;
          if (seen.has(String(id))) return false;
          seen.add(String(id));
          return true;
        });
        // Set keeps insertion order, so the oldest ids go first.
        for (const id of seen) {
          if (seen.size <= rememberIds) break;
          seen.delete(id);
        }
        if (fresh.length > 0) await onEvents(fresh, response);
      } else if (response.status !== 304) {
        throw new ResponseError(operationId, response, true);
      }
    } catch (error) {
      if (signal?.aborted) return;
      if (!options.onError) throw error;
      options.onError(error);
    }
    const elapsed = client.clock.now() - started;
    await client.clock.sleep(Math.max(0, Math.max(intervalMs, minIntervalMs) - elapsed), signal);
  }
}
