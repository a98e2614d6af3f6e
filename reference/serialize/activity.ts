/** The short `actor` and `org` objects of activity events (the full `repo` is in repository.ts). */
import type { Urls } from "../context.ts";
import type { Account } from "../store/accounts.ts";

export function actorJson(account: Pick<Account, "id" | "login">, urls: Urls) {
  return {
    id: account.id,
    login: account.login,
    gravatar_id: "",
    avatar_url: `${urls.api}/avatars/${account.id}`,
    url: `${urls.api}/users/${account.login}`,
  };
}

export function eventOrgJson(org: Pick<Account, "id" | "login">, urls: Urls) {
  return {
    id: org.id,
    login: org.login,
    gravatar_id: "",
    url: `${urls.api}/orgs/${org.login}`,
    avatar_url: `${urls.api}/avatars/${org.id}`,
  };
}
