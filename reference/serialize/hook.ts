/**
 * The contract's Hook object, as the hook endpoints serve it and the ping payload embeds it:
 * URLs under the API host (`test_url` on repository hooks only), the subscribed events, and the
 * config without anything write-only — the webhook `secret` is not in the stored config at all,
 * and a service's `password` keys are dropped here.
 */
import type { components } from "../../generated/types.ts";
import type { Urls } from "../context.ts";
import { findService, passwordKeys } from "../hooks/catalog.ts";
import type { HookOwner, HookRow } from "../store/hooks.ts";
import { isoRequired } from "./time.ts";

export type HookJson = components["schemas"]["Hook"];
export type { HookOwner } from "../store/hooks.ts";

/** The API URL of a hook: `…/repos/:owner/:repo/hooks/:id` or `…/orgs/:org/hooks/:id`. */
export function hookUrl(owner: HookOwner, id: number, urls: Urls): string {
  return owner.kind === "repo" ? `${urls.api}/repos/${owner.owner}/${owner.name}/hooks/${id}` : `${urls.api}/orgs/${owner.login}/hooks/${id}`;
}

/** The list URL of a repository's or organization's hooks. */
export function hooksUrl(owner: HookOwner, urls: Urls): string {
  return owner.kind === "repo" ? `${urls.api}/repos/${owner.owner}/${owner.name}/hooks` : `${urls.api}/orgs/${owner.login}/hooks`;
}

/** The config a client may read back. */
export function servedConfig(row: Pick<HookRow, "name" | "config">): Record<string, string> {
  const hidden = new Set(["secret"]);
  const service = findService(row.name);
  if (service) for (const key of passwordKeys(service)) hidden.add(key);
  return Object.fromEntries(Object.entries(row.config).filter(([key]) => !hidden.has(key)));
}

export function hookJson(row: HookRow, urls: Urls, owner: HookOwner): HookJson {
  const url = hookUrl(owner, row.id, urls);
  return {
    id: row.id,
    url,
    ...(owner.kind === "repo" ? { test_url: `${url}/tests` } : {}),
    ping_url: `${url}/pings`,
    deliveries_url: `${url}/deliveries`,
    name: row.name,
    events: row.events as HookJson["events"],
    active: row.active,
    config: servedConfig(row) as HookJson["config"],
    updated_at: isoRequired(row.updated_at),
    created_at: isoRequired(row.created_at),
    last_response: { code: row.last_response.code, status: row.last_response.status, message: row.last_response.message },
  };
}
