/**
 * Starts a real reference server for a test file: both hosts on free loopback ports, a fresh
 * in-memory PGlite (or PostgreSQL when TEST_DATABASE_URL is set and the test asks for it), the
 * demo seed, and response validation on, so any handler answer that breaks the contract fails
 * the test that provoked it.
 */
import { afterAll, beforeAll, expect } from "vitest";
import { startServer, type RunningServer, type ServerOptions } from "../../reference/server.ts";
import { ceiling } from "../ceilings.ts";

export interface TestServer {
  server: RunningServer;
  api: string;
  auth: string;
  /** Contract violations the server reported while answering. */
  violations: unknown[];
}

/** Registers beforeAll/afterAll hooks; the returned object is filled in before the first test. */
export function useServer(options: ServerOptions = {}): TestServer {
  const t = { violations: [] as unknown[] } as TestServer;
  beforeAll(async () => {
    t.server = await startServer({
      port: 0,
      authPort: 0,
      seed: "demo",
      validateResponses: true,
      onResponseValidationError: (failure) => t.violations.push(failure),
      ...options,
    });
    t.api = t.server.urls.api;
    t.auth = t.server.urls.auth;
  }, ceiling(60_000));
  afterAll(async () => {
    await t.server?.close();
    expect(t.violations, "responses that broke the contract").toEqual([]);
  }, ceiling(15_000));
  return t;
}

export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
}

export const DEMO = {
  octocat: { login: "octocat", password: "octocat-demo-password" },
  hubot: { login: "hubot", password: "hubot-demo-password" },
  defunkt: { login: "defunkt", password: "defunkt-demo-password" },
  monalisa: { login: "monalisa", password: "monalisa-demo-password", totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP" },
  app: { clientId: "demo-client-id-0001", clientSecret: "demo-client-secret-0001-keep-it-private", callback: "http://127.0.0.1:8080/callback" },
  suspendedApp: { clientId: "demo-client-id-0002", clientSecret: "demo-client-secret-0002-keep-it-private", callback: "http://127.0.0.1:8081/callback" },
} as const;

/** Asserts a 422 "Validation Failed" whose one error is `invalid` on `resource`'s `field`. */
export async function expectInvalidField(res: Response, resource: string, field: string): Promise<void> {
  expect(res.status, res.url).toBe(422);
  const body = (await res.json()) as { message: string; errors: { resource: string; field: string; code: string }[] };
  expect(body.message, res.url).toBe("Validation Failed");
  expect(body.errors, res.url).toEqual([expect.objectContaining({ resource, field, code: "invalid" })]);
}
