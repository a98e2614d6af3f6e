/**
 * Webhook payloads from domain activity: given an activity record, inside the transaction of
 * the action that recorded it, the webhook event name, the payload a hook receives, and where
 * it happened (the repository and organization hook matching uses). Every payload but push is
 * the activity payload the feed shows plus `sender`, `repository` and/or `organization` (seed:
 * "payloads mirror the activity event payloads"), so it reuses the recorded payload rather than
 * re-deriving it; push has its own, more detailed shape (push.ts). The delivery engine calls
 * this from a domain listener, so a delivery carries the state the action left behind.
 */
import type { Queryable } from "../db/database.ts";
import type { Urls } from "../context.ts";
import type { Recorded } from "../domain/context.ts";
import { repoById } from "../domain/load.ts";
import { webhookEventOf } from "./event-names.ts";
import { pushPayload } from "./push.ts";
import { organizationJson, repositoryOf, webhookSender } from "./resources.ts";

export type Json = Record<string, unknown>;

export { ORG_ONLY_EVENTS, WEBHOOK_EVENTS, webhookEventOf } from "./event-names.ts";
export { webhookOrganization, webhookRepository, webhookSender } from "./resources.ts";

export interface WebhookPayload {
  /** The `X-Service-Event` name (`push`, `issues`, …). */
  event: string;
  /** The payload's `action`, for the events that have one. */
  action: string | null;
  /** The repository the event happened in; null for organization-level events (membership). */
  repoId: number | null;
  /** The organization owning it; null when a user owns the repository. */
  orgId: number | null;
  payload: Json;
}

/**
 * Events whose payload carries no `repository`: they concern the organization only (the
 * activity event still names the repository the action ran beside, which is not part of it).
 */
const WITHOUT_REPOSITORY = new Set(["membership"]);

/** The webhook event name and payload for an activity record; undefined for types with no webhook. */
export async function webhookPayload(tx: Queryable, urls: Urls, recorded: Extract<Recorded, { kind: "activity" }>): Promise<WebhookPayload | undefined> {
  const event = webhookEventOf(recorded.type);
  if (!event) return undefined;
  const repo = await repoById(tx, recorded.repoId);
  if (!repo) throw new Error(`webhookPayload: activity ${recorded.id} names repository ${recorded.repoId}, which does not exist`);
  const orgId = repo.owner_type === "Organization" ? repo.owner_id : null;
  const repoId = WITHOUT_REPOSITORY.has(event) ? null : repo.id;

  if (event === "push") {
    return { event, action: null, repoId, orgId, payload: await pushPayload(tx, urls, recorded, repo) };
  }

  // A copy: the recorded body is also what the action returns to its caller.
  const activity = structuredClone(recorded.body.payload ?? {}) as Json;
  const payload: Json = { ...activity };
  // The `repository` event's payload already is the new repository (the one it happened in).
  if (repoId !== null && payload.repository === undefined) payload.repository = await repositoryOf(tx, urls, repo);
  if (orgId !== null) payload.organization = organizationJson({ id: orgId, login: repo.owner_login }, urls);
  payload.sender = await webhookSender(tx, urls, recorded.actorId);
  return { event, action: typeof payload.action === "string" ? payload.action : null, repoId, orgId, payload };
}
