/**
 * Helpers of the hook management tests: tokens with chosen scopes (and OAuth application), and a
 * JSON client that keeps the raw response text, so a test can assert that a secret appears in
 * no response at all rather than only in no parsed field.
 */
import { beforeAll } from "vitest";
import type { Database } from "../../reference/db/database.ts";
import type { Scope } from "../../reference/auth/scopes.ts";
import type { ServerOptions } from "../../reference/server.ts";
import { createAuthorization } from "../../reference/store/authorizations.ts";
import { ids } from "./feeds-fixtures.ts";
import { useServer, type TestServer } from "./harness.ts";

/** The seed's hooks that octocat administers: a repository's and an organization's. */
export const REPO_HOOKS = "/repos/octocat/hello-world/hooks";
export const ORG_HOOKS = "/orgs/octo-org/hooks";

export interface HookReply<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

/** A token of `login` with `scopes`, created by the application `appId` (null: a personal token). */
export async function hookToken(db: Database, login: string, scopes: Scope[], appId: number | null = null): Promise<string> {
  const userId = await ids(db).account(login);
  const note = appId === null ? `hooks test ${Math.random()}` : null;
  return (await createAuthorization(db, { userId, appId, scopes, via: appId === null ? "api" : "web", note })).token;
}

export function client(base: () => string) {
  return async function request<T = any>(method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}): Promise<HookReply<T>> {
    const h: Record<string, string> = { ...headers };
    if (token) h.Authorization = `token ${token}`;
    if (body !== undefined) h["Content-Type"] = "application/json";
    const res = await fetch(`${base()}${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, headers: res.headers, text, body: parsed as T };
  };
}

/** A webhook create body posting to `url`. */
export function webhook(url: string, extra: Record<string, unknown> = {}, config: Record<string, unknown> = {}) {
  return { name: "web", config: { url, ...config }, ...extra };
}

/** The 422 items' `field`s. */
export function fields(reply: HookReply): string[] {
  return ((reply.body as { errors?: { field: string }[] }).errors ?? []).map((e) => e.field);
}

export interface HookApi {
  t: TestServer;
  call: ReturnType<typeof client>;
  /** A personal token of octocat with admin:repo_hook and admin:org_hook, made in beforeAll. */
  token: string;
}

/** A server for a hook test file (useServer), a client of its API, and octocat's hook token. */
export function useHookApi(options: ServerOptions = {}): HookApi {
  const t = useServer(options);
  const api: HookApi = { t, call: client(() => t.api), token: "" };
  beforeAll(async () => {
    api.token = await hookToken(t.server.db, "octocat", ["admin:repo_hook", "admin:org_hook"]);
  });
  return api;
}
