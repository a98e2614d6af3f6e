/**
 * Who called a Basic-only operation, as the API hooks resolved it (http/basic-auth.ts). The hooks
 * answer every refusal themselves, so a handler normally finds a user or an application here;
 * finding neither (a route the hooks did not cover) is answered 401, never served anonymously.
 */
import type { RawRequest } from "../../generated/server/index.ts";
import { errorBody } from "../http/errors.ts";
import { MESSAGES } from "../http/basic-auth.ts";
import type { Account } from "../store/accounts.ts";
import type { Application } from "../store/applications.ts";

export function basicUser(raw: RawRequest): Account | undefined {
  const basic = raw.request.basic;
  return basic?.kind === "user" ? basic.user : undefined;
}

export function basicApp(raw: RawRequest): Application | undefined {
  const basic = raw.request.basic;
  return basic?.kind === "app" ? basic.app : undefined;
}

export const unauthenticated = { status: 401, body: errorBody(MESSAGES.missing) } as const;
export const notFound = { status: 404, body: errorBody("Not Found") } as const;
