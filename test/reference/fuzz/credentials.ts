/**
 * What the fuzz sends when it means a request to get through: good path values (resources that
 * exist in the demo seed or that the test created) and the credentials each operation takes.
 */
import type { Credential, FuzzOperation } from "./operations.ts";

export interface FuzzContext {
  /** A token of octocat with every scope the API accepts. */
  token: string;
  /** octocat's username and password (Basic). */
  basic: string;
  /** The demo application's client ID and secret (Basic, for `/applications/…`). */
  client: string;
  /** A spare token of octocat for the demo application: the `access_token` path value. */
  appToken: string;
  /** A spare authorization of octocat: the `authorization_id` path value. */
  authorizationId: number;
  repoHookId: number;
  orgHookId: number;
  clientId: string;
  clientSecret: string;
}

export const basicHeader = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

/** The path value that names something that exists, per parameter. */
export function goodPath(op: FuzzOperation, ctx: FuzzContext): Record<string, string> {
  const values: Record<string, string> = {
    owner: "octocat",
    repo: "hello-world",
    org: "octo-org",
    username: "octocat",
    issue_number: "1",
    event_id: "1",
    hook_id: String(op.template.startsWith("/orgs/") ? ctx.orgHookId : ctx.repoHookId),
    delivery_id: "1",
    authorization_id: String(ctx.authorizationId),
    client_id: ctx.clientId,
    fingerprint: "fuzz-device",
    access_token: ctx.appToken,
  };
  return Object.fromEntries(op.pathParams.map((p) => [p.name, values[p.name] ?? "1"]));
}

/** The `Authorization` header that reaches the operation's own checks. */
export function goodAuth(credential: Credential, ctx: FuzzContext): Record<string, string> {
  if (credential === "token") return { authorization: `token ${ctx.token}` };
  if (credential === "basic") return { authorization: ctx.basic };
  if (credential === "client") return { authorization: ctx.client };
  return {};
}
