/**
 * Rows for the feed and issue-event tests, written straight into the storage contract
 * (004_events.sql) so these tests do not depend on the domain layer: activity event bodies are the
 * contract's own example (spec/examples/activity-event/valid-push.json) with id, actor, repo, org,
 * public and created_at adjusted; issue event bodies come from spec/examples/issue-event.
 */
import { readFileSync } from "node:fs";
import type { Database } from "../../reference/db/database.ts";
import { bumpEventsVersion } from "../../reference/feeds/version.ts";
import { createAuthorization } from "../../reference/store/authorizations.ts";
import type { Scope } from "../../reference/auth/scopes.ts";

const example = (path: string) => JSON.parse(readFileSync(new URL(`../../spec/examples/${path}`, import.meta.url), "utf8")) as Record<string, unknown>;
const PUSH = example("activity-event/valid-push.json");

export interface Ids {
  account(login: string): Promise<number>;
  repo(fullName: string): Promise<{ id: number; ownerId: number; ownerType: string; private: boolean }>;
}

export function ids(db: Database): Ids {
  return {
    async account(login) {
      const row = (await db.query<{ id: number }>("select id::int as id from accounts where login = $1", [login]))[0];
      if (!row) throw new Error(`no account ${login}`);
      return row.id;
    },
    async repo(fullName) {
      const [owner, name] = fullName.split("/");
      const row = (
        await db.query<{ id: number; ownerId: number; ownerType: string; private: boolean }>(
          `select r.id::int as id, o.id::int as "ownerId", o.type as "ownerType", r.private from repositories r join accounts o on o.id = r.owner_id
            where o.login = $1 and r.name = $2`,
          [owner, name],
        )
      )[0];
      if (!row) throw new Error(`no repository ${fullName}`);
      return row;
    },
  };
}

export interface EventSpec {
  actor: string;
  repo: string;
  /** Default: the repository's visibility. */
  public?: boolean;
  /** Default: now minus `index` seconds, so later rows are older. */
  createdAt?: Date;
  count?: number;
  /** Bump the in-process events version (default); false leaves it to max(id) on PostgreSQL. */
  bump?: boolean;
}

/** Inserts `count` push events (newest first in insertion order) and bumps the events version. */
export async function insertEvents(db: Database, spec: EventSpec, api = "https://api.service.example"): Promise<number[]> {
  const i = ids(db);
  const actorId = await i.account(spec.actor);
  const repo = await i.repo(spec.repo);
  const isPublic = spec.public ?? !repo.private;
  const orgLogin = repo.ownerType === "Organization" ? spec.repo.split("/")[0]! : undefined;
  const out: number[] = [];
  const base = spec.createdAt ?? new Date();
  for (let n = 0; n < (spec.count ?? 1); n++) {
    const createdAt = new Date(base.getTime() - n * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const body: Record<string, unknown> = {
      ...PUSH,
      id: "0",
      actor: { id: actorId, login: spec.actor, gravatar_id: "", url: `${api}/users/${spec.actor}`, avatar_url: `${api}/avatars/${actorId}` },
      repo: { id: repo.id, name: spec.repo, url: `${api}/repos/${spec.repo}` },
      public: isPublic,
      created_at: createdAt,
    };
    if (orgLogin) body.org = { id: repo.ownerId, login: orgLogin, gravatar_id: "", url: `${api}/orgs/${orgLogin}`, avatar_url: `${api}/avatars/${repo.ownerId}` };
    else delete body.org;
    const row = (
      await db.query<{ id: number }>(
        `insert into events (type, actor_id, repo_id, org_id, public, body, created_at) values ('PushEvent', $1, $2, $3, $4, $5::jsonb, $6) returning id::int as id`,
        [actorId, repo.id, orgLogin ? repo.ownerId : null, isPublic, JSON.stringify(body), createdAt],
      )
    )[0]!;
    await db.query("update events set body = jsonb_set(body, '{id}', to_jsonb(id::text)) where id = $1", [row.id]);
    out.push(row.id);
  }
  if (spec.bump !== false) bumpEventsVersion();
  return out;
}

/**
 * Inserts one issue event on issue `number` of `repoFull` by octocat, created at `at`, with `body`
 * (an example of spec/examples/issue-event) given its row's `id` and its `url` under `api`.
 */
export async function insertIssueEvent(db: Database, api: string, repoFull: string, number: number, body: Record<string, unknown>, at: Date): Promise<number> {
  const repo = await ids(db).repo(repoFull);
  const issue = (await db.query<{ id: number }>("select id::int as id from issues where repo_id = $1 and number = $2", [repo.id, number]))[0];
  if (!issue) throw new Error(`no issue ${repoFull}#${number}`);
  const actorId = await ids(db).account("octocat");
  const row = (
    await db.query<{ id: number }>(
      "insert into issue_events (repo_id, issue_id, actor_id, event, body, created_at) values ($1, $2, $3, $4, $5::jsonb, $6) returning id::int as id",
      [repo.id, issue.id, actorId, body.event, JSON.stringify(body), at.toISOString()],
    )
  )[0]!;
  await db.query("update issue_events set body = body || jsonb_build_object('id', id, 'url', $2::text) where id = $1", [row.id, `${api}/repos/${repoFull}/issues/events/${row.id}`]);
  return row.id;
}

/** A token for `login` with `scopes`, created in the store like any other. */
export async function tokenFor(db: Database, login: string, scopes: Scope[]): Promise<string> {
  const userId = await ids(db).account(login);
  return (await createAuthorization(db, { userId, appId: null, scopes, via: "api", note: `feeds test ${Math.random()}` })).token;
}

export function auth(token: string): Record<string, string> {
  return { Authorization: `token ${token}` };
}

/** The `id`s of a feed page. */
export async function eventIds(res: Response): Promise<string[]> {
  return ((await res.json()) as { id: string }[]).map((e) => e.id);
}
