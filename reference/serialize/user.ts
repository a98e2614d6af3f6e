/** The seed's User object (and the activity `actor`) for an account, with its API URLs. */
import type { Account } from "../store/accounts.ts";
import type { Urls } from "../context.ts";
import { sha256Hex } from "../auth/secrets.ts";
import { nodeId } from "./node-id.ts";

export interface UserJson {
  login: string;
  id: number;
  /** Beyond the seed (D-WEBHOOK-NODE-ID). */
  node_id: string;
  avatar_url: string;
  gravatar_id: string;
  url: string;
  html_url: string;
  followers_url: string;
  following_url: string;
  gists_url: string;
  starred_url: string;
  subscriptions_url: string;
  organizations_url: string;
  repos_url: string;
  events_url: string;
  received_events_url: string;
  type: "User" | "Organization";
  site_admin: boolean;
}

/** The web origin for html_url: the API host's origin stands in for the site in a local server. */
export function userJson(account: Pick<Account, "id" | "login" | "type" | "site_admin">, urls: Urls): UserJson {
  const base = `${urls.api}/users/${account.login}`;
  return {
    login: account.login,
    id: account.id,
    node_id: nodeId(account.type, account.id),
    avatar_url: `${urls.api}/avatars/${account.id}`,
    gravatar_id: "",
    url: base,
    html_url: `${urls.auth}/${account.login}`,
    followers_url: `${base}/followers`,
    following_url: `${base}/following{/other_user}`,
    gists_url: `${base}/gists{/gist_id}`,
    starred_url: `${base}/starred{/owner}{/repo}`,
    subscriptions_url: `${base}/subscriptions`,
    organizations_url: `${base}/orgs`,
    repos_url: `${base}/repos`,
    events_url: `${base}/events{/privacy}`,
    received_events_url: `${base}/received_events`,
    type: account.type,
    site_admin: account.site_admin,
  };
}

/** A stable, non-identifying avatar id (the service used a gravatar hash of the e-mail). */
export function avatarHash(login: string): string {
  return sha256Hex(login.toLowerCase()).slice(0, 32);
}
