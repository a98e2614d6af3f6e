/**
 * The values of `X-OAuth-Scopes` (the token's scopes) and `X-Accepted-OAuth-Scopes` (what the
 * operation accepts), computed once per viewer and per operation: polls repeat them on every
 * request. Shared by the API hooks and the poll lane, so both send the same text.
 */
import { formatScopes } from "../auth/scopes.ts";
import type { OperationPolicy } from "./operation-policy.ts";
import type { Viewer } from "./viewer.ts";

const scopesHeaders = new WeakMap<Viewer, string>();
export function scopesHeader(viewer: Viewer): string {
  let value = scopesHeaders.get(viewer);
  if (value === undefined) scopesHeaders.set(viewer, (value = formatScopes(viewer.scopes).split(",").filter(Boolean).join(", ")));
  return value;
}

const acceptedHeaders = new WeakMap<OperationPolicy, string>();
export function acceptedHeader(policy: OperationPolicy | undefined): string {
  if (!policy) return "";
  let value = acceptedHeaders.get(policy);
  if (value === undefined) acceptedHeaders.set(policy, (value = policy.acceptedScopes.join(", ")));
  return value;
}
