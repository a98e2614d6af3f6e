/**
 * One case's CaseContext: a fresh HttpClient (its exchanges are this case's only, so the curl
 * line on failure is the case's own last request), the run's receiver and authorizer, and the
 * profile's triggers. Built per case by the runner, with the case's abort signal: every request
 * of the case (its own, the authorize driver's, the triggers') has the run's request time-out
 * and is dropped when the case's time is up.
 */
import type { CaseContext } from "../core/types.ts";
import type { Profile } from "../core/profile.ts";
import type { Receiver } from "../core/receiver.ts";
import { HttpClient } from "../core/http.ts";
import { SkipCase } from "../core/failure.ts";
import type { Authorizer } from "../authorize/index.ts";
import { runTrigger } from "./trigger.ts";

export interface RunResources {
  profile: Profile;
  baseUrl: string;
  authUrl: string;
  receiver?: Receiver;
  authorizer: Authorizer;
  fetch?: typeof fetch;
  /** Per request (default 10 s). */
  requestTimeoutMs?: number;
}

/** `signal` is aborted when the case is over, so requests it left unanswered are dropped. */
export function caseContext(run: RunResources, notes: string[], signal?: AbortSignal): CaseContext {
  const http = new HttpClient(run.baseUrl, run.authUrl, run.fetch, { timeoutMs: run.requestTimeoutMs, signal });
  return {
    profile: run.profile,
    baseUrl: run.baseUrl,
    authUrl: run.authUrl,
    http,
    receiver: run.receiver,
    trigger: (event, params) => runTrigger(event, params, { profile: run.profile, baseUrl: run.baseUrl, fetch: run.fetch, http }),
    authorize: (query, options) => run.authorizer.authorize(query, { ...options, http }),
    skip(reason: string): never {
      throw new SkipCase(reason);
    },
    note(text: string) {
      notes.push(text);
    },
  };
}
