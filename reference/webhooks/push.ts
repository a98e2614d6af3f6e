/**
 * The push webhook, the one payload that does not mirror its activity event (seed: "except
 * push, which has a more detailed webhook payload"). Everything Git-related comes from the
 * PushEvent the action recorded — ref, before, head, the commits (all of them: the feed's list
 * stops at 20, the rest is in the event's `detail`) — so the delivery and the feed
 * always describe the same push; this module only reshapes it: commits in the webhook's form
 * (`id`, web `url`, committer, file lists, timestamp), `after`, created/deleted flags, the
 * compare link, the pusher as a Git identity and the repository in the push's legacy form.
 */
import type { components } from "../../generated/types.ts";
import type { Queryable } from "../db/database.ts";
import type { Urls } from "../context.ts";
import type { Json } from "../domain/context.ts";
import { accountById, repoById } from "../domain/load.ts";
import { fakeSha } from "../domain/record.ts";
import { repoHtmlUrl, type RepoRow } from "../serialize/repository.ts";
import { userJson } from "../serialize/user.ts";
import { pushRepository } from "./resources.ts";
import { organizationJson } from "./resources.ts";

export type PushPayload = components["schemas"]["PushWebhookPayload"];
type Commit = components["schemas"]["Commit"];

const ZERO = "0".repeat(40);

/** The activity payload's fields this module reads (schemas/activity-payloads/push.json). */
interface PushActivity {
  ref: string;
  head: string;
  before: string;
  commits: { sha: string; message: string; author: { name: string; email: string }; distinct: boolean }[];
}

/** What a plausible e-mail looks like; anything else is sent as null (the schema's `format: email`). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The login behind a commit e-mail (`username`), looked up once per address: an account's
 * e-mail, or the `<login>@users.noreply.local` address the domain gives authors without one.
 */
function usernames(tx: Queryable): (email: string) => Promise<string | undefined> {
  const seen = new Map<string, Promise<string | undefined>>();
  return (email) => {
    const key = email.toLowerCase();
    let found = seen.get(key);
    if (!found) {
      found = tx
        .query<{ login: string }>("select login from accounts where type = 'User' and (lower(email) = $1 or lower(login) || '@users.noreply.local' = $1) order by id limit 1", [key])
        .then((rows) => rows[0]?.login);
      seen.set(key, found);
    }
    return found;
  };
}

/**
 * `loaded`: the repository's row as the caller already read it in this transaction, after the
 * action's writes (webhookPayload does): a delivery is enqueued while the action holds its
 * repository's lock, so every statement saved here shortens the time other actions wait.
 */
export async function pushPayload(tx: Queryable, urls: Urls, recorded: { repoId: number; actorId: number; body: Json; detail?: Json }, loaded?: RepoRow): Promise<PushPayload> {
  const activity = recorded.body.payload as PushActivity;
  // A push of more than 20 commits keeps its whole list beside the event: the webhook is not capped.
  const pushed = (recorded.detail?.commits as PushActivity["commits"] | undefined) ?? activity.commits;
  const timestamp = recorded.body.created_at as string;
  const repo = loaded?.id === recorded.repoId ? loaded : await repoById(tx, recorded.repoId);
  const actor = await accountById(tx, recorded.actorId);
  const web = repoHtmlUrl(repo, urls);
  const username = usernames(tx);

  const commits: Commit[] = [];
  for (const c of pushed) {
    const login = await username(c.author.email);
    // The reference server has no Git objects: author and committer are the same identity.
    const who = { name: c.author.name, email: c.author.email, ...(login ? { username: login } : {}) };
    commits.push({
      id: c.sha,
      // The same stand-in tree SHA the StatusEvent of this commit carries (domain/actions/ci.ts).
      tree_id: fakeSha("tree", c.sha),
      distinct: c.distinct,
      message: c.message,
      timestamp,
      url: `${web}/commit/${c.sha}`,
      author: who,
      committer: who,
      added: [],
      removed: [],
      modified: [],
    });
  }

  const before = activity.before;
  const after = activity.head;
  const created = before === ZERO;
  const deleted = after === ZERO;
  const headCommit = deleted ? null : (commits.find((c) => c.id === after) ?? null);
  const compare = created ? `${web}/commit/${after.slice(0, 12)}` : `${web}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`;

  return {
    ref: activity.ref,
    before,
    after,
    created,
    deleted,
    forced: false,
    base_ref: null,
    compare,
    commits,
    head_commit: headCommit,
    repository: await pushRepository(tx, urls, repo, actor),
    pusher: { name: actor.login, email: actor.email && EMAIL.test(actor.email) ? actor.email : null },
    ...(repo.owner_type === "Organization" ? { organization: organizationJson({ id: repo.owner_id, login: repo.owner_login }, urls) } : {}),
    sender: userJson(actor, urls),
  };
}
