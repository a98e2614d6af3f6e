/**
 * Which webhook event an activity record is delivered as. The contract names activity types
 * `<Pascal(webhook event)>Event`; the table below spells the pairs out instead of deriving them
 * by string surgery, and is typed over the contract's webhook event names so that an event
 * added to the spec without a line here fails the type check rather than silently never firing.
 */
import type { DeliveryEventName } from "../../generated/types.ts";

/** Every event a hook can subscribe to (the contract's webhooks, less `ping`, which is never recorded). */
export type WebhookEvent = Exclude<DeliveryEventName, "ping">;

const ACTIVITY_TYPE_OF: { readonly [E in WebhookEvent]: `${string}Event` } = {
  commit_comment: "CommitCommentEvent",
  create: "CreateEvent",
  delete: "DeleteEvent",
  deployment: "DeploymentEvent",
  deployment_status: "DeploymentStatusEvent",
  fork: "ForkEvent",
  gollum: "GollumEvent",
  issue_comment: "IssueCommentEvent",
  issues: "IssuesEvent",
  member: "MemberEvent",
  membership: "MembershipEvent",
  page_build: "PageBuildEvent",
  public: "PublicEvent",
  pull_request: "PullRequestEvent",
  pull_request_review_comment: "PullRequestReviewCommentEvent",
  push: "PushEvent",
  release: "ReleaseEvent",
  repository: "RepositoryEvent",
  status: "StatusEvent",
  team_add: "TeamAddEvent",
  watch: "WatchEvent",
};

const EVENT_OF_TYPE: ReadonlyMap<string, WebhookEvent> = new Map(
  (Object.entries(ACTIVITY_TYPE_OF) as [WebhookEvent, string][]).map(([event, type]) => [type, event]),
);

/** The webhook event for an activity type (`PushEvent` → `push`); undefined for anything else. */
export function webhookEventOf(activityType: string): WebhookEvent | undefined {
  return EVENT_OF_TYPE.get(activityType);
}

/** Every subscribable webhook event, sorted. */
export const WEBHOOK_EVENTS: readonly string[] = Object.freeze((Object.keys(ACTIVITY_TYPE_OF) as WebhookEvent[]).sort());

/** Organization hooks only (seed): one list, kept with the other hook event rules. */
export { ORGANIZATION_ONLY_EVENTS as ORG_ONLY_EVENTS } from "../hooks/events.ts";
