/**
 * A small HTTP client for the non-web flow tests: JSON requests with Basic credentials (and an
 * optional two-factor code) against a harness server, returning status, headers and parsed body.
 */
import { expect } from "vitest";
import { basic, DEMO } from "./harness.ts";

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  auth?: string;
  body?: unknown;
  /** Sent as is (not JSON-encoded) when a string. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export async function call<T = any>(base: string, method: string, path: string, options: CallOptions = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.auth !== undefined) headers.Authorization = options.auth;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] ??= "application/json";
  }
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: keep the text so the assertion shows it.
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

export const octocat = basic(DEMO.octocat.login, DEMO.octocat.password);
export const hubot = basic(DEMO.hubot.login, DEMO.hubot.password);
export const monalisa = basic(DEMO.monalisa.login, DEMO.monalisa.password);
export const demoApp = basic(DEMO.app.clientId, DEMO.app.clientSecret);

/** The contract's error shape, with an exact message or one matching a pattern. */
export function errorShape(message: string | RegExp) {
  return { message: typeof message === "string" ? message : expect.stringMatching(message), documentation_url: expect.any(String) };
}
