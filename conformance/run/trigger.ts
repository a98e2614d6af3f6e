/**
 * `ctx.trigger(event, params)`: makes an event happen on the target the way the profile says —
 * HTTP requests to send or commands to run, in order. The suite cannot know how a foreign
 * implementation creates a push or an issue, so the profile spells it out and this module only
 * fills in placeholders and reports a step that did not work as a case failure (its status or
 * exit code, and what it printed), never as a target defect it cannot prove.
 *
 * Placeholders: `{name}` in any string of a step (URL, headers, body, command arguments) is the
 * parameter `name`; parameters are the built-ins (login, repo, owner, name, org, issue,
 * private_repo, nonce, event), then `triggerParams[event]` from the profile, then the case's
 * own. A body value that is exactly `"{*}"` becomes the object of the profile's defaults and the
 * case's parameters (no built-ins), for targets that take parameters as one object.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { Profile, TriggerStep } from "../core/profile.ts";
import { CaseFailure, SkipCase } from "../core/failure.ts";
import type { HttpClient } from "../core/http.ts";
import { DEFAULT_MAX_RESPONSE_BYTES, readBoundedText } from "../core/bounded-body.ts";
import { madeFrom, type TriggerMade } from "./trigger-made.ts";

/** The start of every failure of a trigger step: the profile's way of making events did not work. */
export const TRIGGER_FAILURE = /^(trigger "[^"]*": |the profile's trigger for ")/;

/** How long one command step may run. */
export const COMMAND_TIMEOUT_MS = 60_000;

export interface TriggerOptions {
  profile: Profile;
  baseUrl: string;
  fetch?: typeof fetch;
  /** The case's client: its request time-out and abort signal bound the trigger's requests too. */
  http?: HttpClient;
}

function builtIns(profile: Profile, event: string): Record<string, string> {
  const out: Record<string, string> = { event, nonce: randomBytes(4).toString("hex") };
  const login = profile.users[0]?.login;
  if (login) out.login = login;
  const repo = profile.repos?.public;
  if (repo) {
    out.repo = repo;
    const [owner, name] = repo.split("/");
    if (owner) out.owner = owner;
    if (name) out.name = name;
  }
  if (profile.repos?.private) out.private_repo = profile.repos.private;
  if (profile.org) out.org = profile.org;
  if (profile.issue !== undefined) out.issue = String(profile.issue);
  return out;
}

function fill(text: string, params: Record<string, string>, event: string): string {
  return text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) {
      throw new CaseFailure(`the profile's trigger for "${event}" uses {${name}}, which neither the case nor triggerParams.${event} provides`, {
        expected: `a parameter ${name}`,
        actual: Object.keys(params).sort(),
      });
    }
    return value;
  });
}

function fillValue(value: unknown, params: Record<string, string>, spread: Record<string, string>, event: string): unknown {
  if (value === "{*}") return { ...spread };
  if (typeof value === "string") return fill(value, params, event);
  if (Array.isArray(value)) return value.map((v) => fillValue(v, params, spread, event));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillValue(v, params, spread, event)]));
  return value;
}

/** The parameters for one trigger call: built-ins, then the profile's defaults, then the case's. */
export function triggerParams(profile: Profile, event: string, given: Record<string, string> = {}): { all: Record<string, string>; spread: Record<string, string> } {
  const base = builtIns(profile, event);
  const defaults = Object.fromEntries(Object.entries(profile.triggerParams?.[event] ?? {}).map(([k, v]) => [k, fill(v, base, event)]));
  const spread = { ...defaults, ...given };
  return { all: { ...base, ...spread }, spread };
}

async function httpStep(step: Extract<TriggerStep, { http: unknown }>["http"], params: { all: Record<string, string>; spread: Record<string, string> }, event: string, options: TriggerOptions): Promise<TriggerMade> {
  const filled = fill(step.url, params.all, event);
  // Relative URLs hang off --base-url, path prefix included ("/x" on http://h/api is http://h/api/x).
  const url = /^https?:\/\//i.test(filled) ? filled : `${options.baseUrl.replace(/\/+$/, "")}/${filled.replace(/^\/+/, "")}`;
  const headers: Record<string, string> = Object.fromEntries(Object.entries(step.headers ?? {}).map(([k, v]) => [k.toLowerCase(), fill(v, params.all, event)]));
  let body: string | undefined;
  if (step.body !== undefined) {
    const filled = fillValue(step.body, params.all, params.spread, event);
    if (typeof filled === "string") body = filled;
    else {
      body = JSON.stringify(filled);
      headers["content-type"] ??= "application/json";
    }
  }
  const method = step.method.toUpperCase();
  const fetchImpl = options.fetch ?? fetch;
  let res: Response;
  let text: string;
  if (options.http) {
    // The case's client: its request time-out, the end of the case, and its byte limit.
    try {
      ({ res, text } = await options.http.send(method, url, (signal) => fetchImpl(url, { method, headers, body, redirect: "manual", signal }), (r) => r.body));
    } catch (error) {
      const failure = error as CaseFailure;
      throw new CaseFailure(`trigger "${event}": ${failure.message}`, failure.detail);
    }
  } else {
    try {
      res = await fetchImpl(url, { method, headers, body, redirect: "manual" });
      text = await readBoundedText(res.body, DEFAULT_MAX_RESPONSE_BYTES);
    } catch (error) {
      throw new CaseFailure(`trigger "${event}": ${method} ${url} failed: ${(error as Error).message}`, { expected: "an HTTP response", actual: String((error as Error).cause ?? error) });
    }
  }
  if (res.status < 200 || res.status > 299) {
    throw new CaseFailure(`trigger "${event}": ${method} ${url} answered ${res.status}`, { expected: "2xx", actual: `${res.status} ${text.slice(0, 300)}` });
  }
  return madeFrom(text, step.made);
}

function commandStep(argv: string[], params: Record<string, string>, event: string, signal: AbortSignal | undefined, made: Extract<TriggerStep, { command: unknown }>["made"]): Promise<TriggerMade> {
  const [file, ...args] = argv.map((a) => fill(a, params, event));
  if (!file) return Promise.reject(new CaseFailure(`trigger "${event}": an empty command`, {}));
  return new Promise((resolve, reject) => {
    // The case's end kills the command too: a hanging tool must not keep the run alive after it.
    execFile(file, args, { timeout: COMMAND_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, signal }, (error, stdout, stderr) => {
      if (!error) return resolve(madeFrom(String(stdout), made));
      const code = (error as NodeJS.ErrnoException & { code?: unknown }).code;
      const tail = `${stderr || stdout}`.trim().slice(-500);
      reject(new CaseFailure(`trigger "${event}": command ${file} failed${typeof code === "number" ? ` with exit code ${code}` : `: ${error.message}`}`, { expected: "exit code 0", actual: tail || String(code ?? error.message) }));
    });
  });
}

/** Runs the profile's steps for `event`, and says what they made (trigger-made.ts); SkipCase when the profile has none. */
export async function runTrigger(event: string, given: Record<string, string> | undefined, options: TriggerOptions): Promise<TriggerMade> {
  const steps = options.profile.triggers?.[event];
  if (!steps || steps.length === 0) throw new SkipCase(`profile has no trigger for "${event}"`);
  const params = triggerParams(options.profile, event, given);
  let made: TriggerMade = {};
  for (const step of steps) {
    const said = "http" in step ? await httpStep(step.http, params, event, options) : await commandStep(step.command, params.all, event, options.http?.caseSignal, step.made);
    made = { ...made, ...said };
  }
  return made;
}
