/**
 * One case's CaseContext: a fresh HttpClient (its exchanges are this case's only, so the curl
 * line on failure is the case's own last request), the run's receiver and authorizer, and the
 * profile's triggers. Built per case by the runner.
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
}

export function caseContext(run: RunResources, notes: string[]): CaseContext {
  const http = new HttpClient(run.baseUrl, run.authUrl, run.fetch);
  return {
    profile: run.profile,
    baseUrl: run.baseUrl,
    authUrl: run.authUrl,
    http,
    receiver: run.receiver,
    trigger: (event, params) => runTrigger(event, params, { profile: run.profile, baseUrl: run.baseUrl, fetch: run.fetch }),
    authorize: (query, options) => run.authorizer.authorize(query, { ...options, http }),
    skip(reason: string): never {
      throw new SkipCase(reason);
    },
    note(text: string) {
      notes.push(text);
    },
  };
}
