/**
 * Writing events. `act()` runs an action in one transaction and collects what it recorded;
 * `recordActivity` and `recordIssueEvent` insert a row, then store the complete body with the
 * row's own id in it (body->>'id' = id::text, the storage contract the feeds read), and call the
 * listeners in the same transaction.
 */
import { createHash } from "node:crypto";
import { bumpEventsVersion } from "../feeds/version.ts";
import type { Queryable } from "../db/database.ts";
import type { Account } from "../store/accounts.ts";
import { actorJson, eventOrgJson } from "../serialize/activity.ts";
import { eventRepoJson, repoApiUrl, type RepoRow } from "../serialize/repository.ts";
import { userJson } from "../serialize/user.ts";
import { isoRequired } from "../serialize/time.ts";
import type { IssueRow } from "../serialize/issue.ts";
import type { ActionResult, DomainContext, Json } from "./context.ts";
import { repoByName } from "./load.ts";

export interface Act {
  tx: Queryable;
  ctx: DomainContext;
  at: Date;
  result: ActionResult;
}

export async function act(ctx: DomainContext, at: Date | undefined, fn: (a: Act) => Promise<void>): Promise<ActionResult> {
  const result = await ctx.db.transaction(async (tx) => {
    const a: Act = { tx, ctx, at: at ?? ctx.now(), result: { events: [], issueEvents: [] } };
    await fn(a);
    return a.result;
  });
  // After the commit, so a feed rebuilt on the new version sees the new rows.
  if (result.events.length > 0 || result.issueEvents.length > 0) bumpEventsVersion();
  return result;
}

/** A deterministic 40-hex SHA from its inputs: the reference server has no Git objects. */
export function fakeSha(...parts: unknown[]): string {
  return createHash("sha1").update(parts.map(String).join("\0")).digest("hex");
}

/** A number of the database's sequence: never handed out twice, whichever instance asks, across restarts. */
export async function sequenceNumber(a: Act): Promise<number> {
  return Number((await a.tx.query<{ id: number }>("select nextval('domain_object_ids')::bigint as id"))[0]!.id);
}

/**
 * The SHA of a commit the action makes: its inputs plus a sequence number, so two instances (or
 * two transactions) making "the same" commit in the same millisecond still get different SHAs,
 * while a fresh database replays the same SHAs (the demo history stays deterministic).
 */
export async function newCommitSha(a: Act, ...parts: unknown[]): Promise<string> {
  return fakeSha(...parts, await sequenceNumber(a));
}

/**
 * Serialize the actions on one repository: each reads, then writes, what it holds (its next issue
 * number, a branch head, an issue's state). Without it two instances at once read the same value,
 * and one fails on the unique number, loses the other's push, or merges a merged pull request.
 * `runAction` takes it first, for every action, in the statement that reads the repository
 * (load.ts repoByName with `lock`): one round trip less while the lock is held, and the row
 * comes back as it is once the lock is granted, not as it was before waiting for it.
 */
export async function lockRepository(a: Act, full: string): Promise<RepoRow> {
  return repoByName(a.tx, full, { lock: true });
}

export async function recordActivity(a: Act, e: { type: string; actor: Pick<Account, "id" | "login">; repo: RepoRow; payload: Json; detail?: Json }): Promise<Json> {
  const { tx, ctx, at } = a;
  const isPublic = !e.repo.private;
  const orgId = e.repo.owner_type === "Organization" ? e.repo.owner_id : null;
  const bodyWith = (id: string): Json => ({
    id,
    type: e.type,
    actor: actorJson(e.actor, ctx.urls),
    repo: eventRepoJson(e.repo, ctx.urls),
    payload: e.payload,
    public: isPublic,
    created_at: isoRequired(at),
    ...(orgId !== null ? { org: eventOrgJson({ id: orgId, login: e.repo.owner_login }, ctx.urls) } : {}),
  });
  // One statement: the row's id is drawn first, so the body is stored with it at once rather than
  // updated in a second round trip (the body's `id` is replaced in SQL; jsonb keeps no key order).
  const [{ id }] = (await tx.query<{ id: number }>(
    `with next as (select nextval(pg_get_serial_sequence('events', 'id')) as id)
     insert into events (id, type, actor_id, repo_id, org_id, public, body, created_at, detail) overriding system value
     select next.id, $1, $2::bigint, $3::bigint, $4::bigint, $5::boolean, jsonb_set($6::jsonb, '{id}', to_jsonb(next.id::text)), $7::timestamptz, $8::jsonb from next
     returning id`,
    [e.type, e.actor.id, e.repo.id, orgId, isPublic, JSON.stringify(bodyWith("")), at.toISOString(), e.detail ? JSON.stringify(e.detail) : null],
  )) as [{ id: number }];
  const body = bodyWith(String(id));
  a.result.events.push(body);
  for (const listener of ctx.listeners ?? []) {
    await listener(tx, { kind: "activity", id, type: e.type, repoId: e.repo.id, actorId: e.actor.id, public: isPublic, body, ...(e.detail ? { detail: e.detail } : {}) });
  }
  return body;
}

export type IssueEventKind =
  | "closed" | "reopened" | "subscribed" | "merged" | "referenced" | "mentioned" | "assigned" | "unassigned" | "labeled"
  | "unlabeled" | "milestoned" | "demilestoned" | "renamed" | "locked" | "unlocked" | "head_ref_deleted" | "head_ref_restored";

/** `extra` carries the kind's own field (label, assignee, milestone, rename); commit_id is null unless given. */
export async function recordIssueEvent(
  a: Act,
  e: { repo: RepoRow; issue: IssueRow; actor: Account; event: IssueEventKind; commitId?: string | null; extra?: Json },
): Promise<Json> {
  const { tx, ctx, at } = a;
  const eventsUrl = `${repoApiUrl(e.repo, ctx.urls)}/issues/events/`;
  const bodyWith = (id: number): Json => ({
    id,
    url: `${eventsUrl}${id}`,
    actor: userJson(e.actor, ctx.urls),
    event: e.event,
    commit_id: e.commitId ?? null,
    created_at: isoRequired(at),
    ...e.extra,
  });
  // One statement, as recordActivity's: the id and the url that ends with it are set in SQL.
  const [{ id }] = (await tx.query<{ id: number }>(
    `with next as (select nextval(pg_get_serial_sequence('issue_events', 'id')) as id)
     insert into issue_events (id, repo_id, issue_id, actor_id, event, body, created_at) overriding system value
     select next.id, $1::bigint, $2::bigint, $3::bigint, $4, $5::jsonb || jsonb_build_object('id', next.id, 'url', $6::text || next.id), $7::timestamptz from next
     returning id`,
    [e.repo.id, e.issue.id, e.actor.id, e.event, JSON.stringify(bodyWith(0)), eventsUrl, at.toISOString()],
  )) as [{ id: number }];
  const body = bodyWith(Number(id));
  a.result.issueEvents.push(body);
  for (const listener of ctx.listeners ?? []) {
    await listener(tx, { kind: "issue", id, repoId: e.repo.id, issueId: e.issue.id, event: e.event, body });
  }
  return body;
}
