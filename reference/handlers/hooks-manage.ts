/**
 * The hook operations repository and organization hooks share — list (30 a page, `Link`), get,
 * create a webhook, edit, delete — over a `HookPlace` that says where the hooks are installed
 * and, for organizations, which token application's hooks the caller sees. Writes run in one
 * transaction; a new hook's ping is enqueued in it (ctx.pings), so the hook and its ping exist
 * together or not at all. The unique indexes of 006_hooks.sql settle what a concurrent request
 * could slip past the checks here. A repository or an organization holds at most
 * MAX_HOOKS_PER_PLACE hooks (DECISIONS D-REF-HOOKS-CAP): one push must not fan out without end.
 */
import type { Context } from "../context.ts";
import type { Queryable } from "../db/database.ts";
import { findService, WEB } from "../hooks/catalog.ts";
import { ensureSecretKey } from "../hooks/secret-box.ts";
import { linkHeader, pageWindow } from "../http/pagination.ts";
import { hookJson, hookUrl, hooksUrl } from "../serialize/hook.ts";
import { deleteHook, findHook, insertHook, isHookConflict, listHooks, updateHook, webUrlTaken, type HookOwner, type HookRow, type HookScope } from "../store/hooks.ts";
import { notFound, validHookId, type HookCaller } from "./hooks-access.ts";
import { DEFAULT_EGRESS } from "../hooks/egress.ts";
import { failed, item, parseCreate, parseUpdate, urlTaken, type CreateBody, type HookPlace, type HookValues, type UpdateBody } from "./hooks-input.ts";

export interface Place {
  kind: HookPlace;
  id: number;
  owner: HookOwner;
  /** What the caller may see: the repository's hooks, or the organization's of its token's application. */
  scope: HookScope;
}

// A page far past any list reads nothing (and keeps the offset inside the database's integers).
const MAX_OFFSET = 1_000_000_000;

const URL_INDEX = { repo: "hooks_one_web_url_per_repo", org: "hooks_one_web_url_per_org" } as const;

function target(place: Place): { repoId: number } | { orgId: number } {
  return place.kind === "repo" ? { repoId: place.id } : { orgId: place.id };
}

export async function listPlaceHooks(ctx: Context, place: Place, page: number) {
  const { limit, offset } = pageWindow(page);
  const { rows, total } = await listHooks(ctx.db, place.scope, offset > MAX_OFFSET ? 0 : limit, offset > MAX_OFFSET ? 0 : offset);
  const link = linkHeader(hooksUrl(place.owner, ctx.urls), page, total);
  return { status: 200 as const, headers: link ? { Link: link } : {}, body: rows.map((row) => hookJson(row, ctx.urls, place.owner)) };
}

export async function getPlaceHook(ctx: Context, place: Place, id: number) {
  const row = validHookId(id) ? await findHook(ctx.db, place.scope, id) : undefined;
  return row ? { status: 200 as const, body: hookJson(row, ctx.urls, place.owner) } : notFound;
}

export async function deletePlaceHook(ctx: Context, place: Place, id: number) {
  const deleted = validHookId(id) && (await deleteHook(ctx.db, place.scope, id));
  return deleted ? { status: 204 as const } : notFound;
}

/** Hooks a repository or an organization may hold, webhooks and service hooks together. */
export const MAX_HOOKS_PER_PLACE = 20;

export const tooManyHooks = (kind: HookPlace) =>
  failed([item("hooks", "custom", `A ${kind === "repo" ? "repository" : "organization"} can have at most ${MAX_HOOKS_PER_PLACE} hooks; delete one first.`)]);

/**
 * Whether the place is full. On PostgreSQL it first takes the place's lock for the rest of the
 * transaction, so two concurrent creations cannot both take the last place (PGlite runs one
 * transaction at a time).
 */
export async function placeFull(ctx: Context, tx: Queryable, place: Place): Promise<boolean> {
  if (ctx.db.kind === "postgres") await tx.query("select pg_advisory_xact_lock(hashtext($1))", [`hooks:${place.kind}:${place.id}`]);
  const rows = await tx.query<{ n: number }>(`select count(*)::int as n from hooks where ${place.kind === "repo" ? "repo_id" : "org_id"} = $1`, [place.id]);
  return (rows[0]?.n ?? 0) >= MAX_HOOKS_PER_PLACE;
}

/** The new hook's row, with its ping enqueued in the same transaction. */
export async function insertAndPing(ctx: Context, tx: Queryable, place: Place, name: string, values: HookValues, caller: HookCaller): Promise<HookRow> {
  const row = await insertHook(tx, {
    repoId: place.kind === "repo" ? place.id : null,
    orgId: place.kind === "org" ? place.id : null,
    name,
    ...values,
    appId: caller.appId,
    creatorId: caller.user.id,
    now: ctx.now(),
  });
  await ctx.pings?.ping(tx, row.id, caller.user.id);
  return row;
}

export function created(ctx: Context, place: Place, row: HookRow) {
  return { status: 201 as const, headers: { Location: hookUrl(place.owner, row.id, ctx.urls) }, body: hookJson(row, ctx.urls, place.owner) };
}

/** A webhook (`name: web`) on the place; 422 when another one already posts to its URL. */
export async function createWebHook(ctx: Context, place: Place, body: CreateBody, caller: HookCaller) {
  await ensureSecretKey(ctx.db);
  const parsed = parseCreate(body, place.kind, undefined, ctx.hookEgress ?? DEFAULT_EGRESS);
  if (!parsed.ok) return failed(parsed.errors);
  const values = parsed.value;
  try {
    return await ctx.db.transaction(async (tx) => {
      if (await placeFull(ctx, tx, place)) return tooManyHooks(place.kind);
      if (await webUrlTaken(tx, target(place), values.config.url!)) return urlTaken();
      return created(ctx, place, await insertAndPing(ctx, tx, place, WEB, values, caller));
    });
  } catch (error) {
    if (isHookConflict(error, URL_INDEX[place.kind])) return urlTaken();
    throw error;
  }
}

export async function updatePlaceHook(ctx: Context, place: Place, id: number, body: UpdateBody) {
  if (!validHookId(id)) return notFound;
  await ensureSecretKey(ctx.db);
  try {
    const outcome = await ctx.db.transaction(async (tx) => {
      const row = await findHook(tx, place.scope, id, true);
      if (!row) return notFound;
      const parsed = parseUpdate(body, row, place.kind, row.name === WEB ? undefined : findService(row.name), ctx.hookEgress ?? DEFAULT_EGRESS);
      if (!parsed.ok) return failed(parsed.errors);
      const url = parsed.value.config.url;
      if (row.name === WEB && url !== undefined && url !== row.config.url && (await webUrlTaken(tx, target(place), url, row.id))) return urlTaken();
      const updated = await updateHook(tx, row.id, { ...parsed.value, now: ctx.now() });
      return { status: 200 as const, body: hookJson(updated, ctx.urls, place.owner) };
    });
    return outcome;
  } catch (error) {
    if (isHookConflict(error, URL_INDEX[place.kind])) return urlTaken();
    throw error;
  }
}
