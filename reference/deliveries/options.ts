/**
 * The delivery engine's settings, with their defaults, and their one outside-the-code source:
 * the SERVICE_CONTRACT_DELIVERIES environment variable read by `serve`, a JSON object such as
 * `{"baseDelayMs":50,"timeoutMs":1000,"expireInSeconds":3}` (keys: those of DeliveryOptions
 * except `enabled`/`onError`, with the RetrySchedule keys at the top level). The tests of the
 * engine use it to run a whole schedule in a second against a real `serve` child process.
 */
import { DEFAULT_SCHEDULE, type RetrySchedule } from "./schedule.ts";
import { DEFAULT_EGRESS, type EgressPolicy } from "../hooks/egress.ts";

export interface DeliveryOptions {
  /** false: no engine (nothing is enqueued or sent). Default true. */
  enabled?: boolean;
  schedule?: Partial<RetrySchedule>;
  /** One attempt as a whole: connect, send, answer and the body excerpt. Default 10 s (DESIGN.md). */
  timeoutMs?: number;
  /** A job active this long is taken for abandoned (its process died) and retried. Default 30 s. */
  expireInSeconds?: number;
  /**
   * Deliveries in flight at once in this process to one receiver, or for one owner's hooks.
   * Default 16. A quarter as many more (at least one) are kept for other receivers and owners
   * (deliveries/fair-slots.ts), so the process may have up to 1.25× this many in flight.
   */
  concurrency?: number;
  /** How often the queue is read when nothing signalled new work. Default 1 s. */
  pollIntervalMs?: number;
  /** pg-boss maintenance (expiry of abandoned jobs, archiving). Default 30 s. */
  maintenanceIntervalSeconds?: number;
  /** Bodies larger than this are not sent (a failed attempt, not retried). Default 25 MB (DESIGN.md). */
  maxBodyBytes?: number;
  /** Errors of the engine itself (database, queue); default: one line on stderr. */
  onError?: (error: unknown) => void;
  /** Called after each attempt this process made (logging, metrics, tests). */
  onAttempt?: (attempt: AttemptReport) => void;
  hookEgress?: EgressPolicy;
}

export interface AttemptReport {
  guid: string;
  event: string;
  hookId: number;
  status: string;
  statusCode: number;
}

export interface ResolvedDeliveryOptions {
  schedule: RetrySchedule;
  timeoutMs: number;
  expireInSeconds: number;
  concurrency: number;
  pollIntervalMs: number;
  maintenanceIntervalSeconds: number;
  maxBodyBytes: number;
  onError: (error: unknown) => void;
  onAttempt?: (attempt: AttemptReport) => void;
  hookEgress: EgressPolicy;
}

export const MAX_BODY_BYTES = 25 * 1024 * 1024;
export const DELIVERIES_ENV = "SERVICE_CONTRACT_DELIVERIES";

function reportError(error: unknown): void {
  process.stderr.write(`deliveries: ${error instanceof Error ? error.message : String(error)}\n`);
}

/** Time kept for writing an attempt's outcome before its job could expire. */
const WRITE_MS = 1000;
/** The least time a fetched job may wait for a slot (resolveOptions keeps the expiry high enough). */
const MIN_SLOT_WAIT_MS = 1000;

/**
 * How long a fetched job may wait in the worker for a slot: started later, its attempt (up to
 * `timeoutMs`) and the writing of its outcome could outlast its expiry, and pg-boss would hand
 * it out again while it is being sent. Resolved options keep it at MIN_SLOT_WAIT_MS or more.
 */
export function slotWaitMs(options: Pick<ResolvedDeliveryOptions, "expireInSeconds" | "timeoutMs">): number {
  return options.expireInSeconds * 1000 - options.timeoutMs - WRITE_MS;
}

export function resolveOptions(options: DeliveryOptions = {}): ResolvedDeliveryOptions {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    schedule: { ...DEFAULT_SCHEDULE, ...options.schedule },
    timeoutMs,
    // pg-boss counts whole seconds; an active job must outlive the longest attempt, plus the time
    // to write its outcome and at least MIN_SLOT_WAIT_MS it may wait for a slot (worker.ts hands
    // back a job that waited longer than slotWaitMs; with none it would hand back every job).
    expireInSeconds: Math.max(options.expireInSeconds ?? 30, Math.ceil((timeoutMs + WRITE_MS + MIN_SLOT_WAIT_MS) / 1000)),
    concurrency: options.concurrency ?? 16,
    pollIntervalMs: options.pollIntervalMs ?? 1000,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
    maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
    onError: options.onError ?? reportError,
    ...(options.onAttempt ? { onAttempt: options.onAttempt } : {}),
    hookEgress: options.hookEgress ?? DEFAULT_EGRESS,
  };
}

const NUMBER_KEYS = ["attempts", "baseDelayMs", "factor", "maxDelayMs", "jitter", "timeoutMs", "expireInSeconds", "concurrency", "pollIntervalMs", "maintenanceIntervalSeconds", "maxBodyBytes"] as const;
const SCHEDULE_KEYS = new Set<string>(["attempts", "baseDelayMs", "factor", "maxDelayMs", "jitter"]);
const INTEGER_KEYS = new Set<string>(["attempts", "expireInSeconds", "concurrency", "maintenanceIntervalSeconds", "maxBodyBytes"]);

/** DeliveryOptions from the environment variable's JSON; throws a readable Error when it is malformed. */
export function optionsFromEnv(text: string | undefined = process.env[DELIVERIES_ENV]): DeliveryOptions {
  if (text === undefined || text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${DELIVERIES_ENV} must be a JSON object`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error(`${DELIVERIES_ENV} must be a JSON object`);
  const schedule: Partial<RetrySchedule> = {};
  const options: DeliveryOptions & Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!(NUMBER_KEYS as readonly string[]).includes(key)) throw new Error(`${DELIVERIES_ENV}: unknown key ${key}; known: ${NUMBER_KEYS.join(", ")}`);
    const ok = typeof value === "number" && Number.isFinite(value) && value >= 0 && (!INTEGER_KEYS.has(key) || Number.isInteger(value));
    if (!ok || (key === "attempts" && value < 1) || (key === "concurrency" && value < 1)) throw new Error(`${DELIVERIES_ENV}: ${key} must be a ${INTEGER_KEYS.has(key) ? "positive integer" : "number ≥ 0"}`);
    if (SCHEDULE_KEYS.has(key)) (schedule as Record<string, number>)[key] = value;
    else options[key] = value;
  }
  return Object.keys(schedule).length > 0 ? { ...options, schedule } : options;
}
