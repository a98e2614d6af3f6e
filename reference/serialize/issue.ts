/**
 * Issues, labels, milestones and issue comments as the seed shows them. Pure functions over
 * rows the domain layer loads (reference/domain/load.ts); the caller supplies joined accounts.
 */
import type { Urls } from "../context.ts";
import type { UserJson } from "./user.ts";
import { iso, isoRequired } from "./time.ts";
import { nodeId } from "./node-id.ts";

export interface IssueRow {
  id: number;
  repo_id: number;
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  user_id: number;
  assignee_id: number | null;
  milestone_id: number | null;
  locked: boolean;
  pull_request: boolean;
  created_at: string | Date;
  updated_at: string | Date;
  closed_at: string | Date | null;
}

export interface LabelRow {
  id: number;
  name: string;
  color: string;
}

export interface MilestoneRow {
  id: number;
  number: number;
  title: string;
  description: string | null;
  state: "open" | "closed";
  creator_id: number;
  due_on: string | Date | null;
  created_at: string | Date;
  updated_at: string | Date;
  closed_at: string | Date | null;
  open_issues: number;
  closed_issues: number;
}

export function labelJson(label: LabelRow, repoUrl: string) {
  // `id` and `node_id` beyond the seed's three fields (D-WEBHOOK-NODE-ID).
  return { id: label.id, node_id: nodeId("Label", label.id), url: `${repoUrl}/labels/${encodeURIComponent(label.name)}`, name: label.name, color: label.color };
}

export function milestoneJson(m: MilestoneRow, creator: UserJson, repoUrl: string, repoHtml: string) {
  return {
    url: `${repoUrl}/milestones/${m.number}`,
    html_url: `${repoHtml}/milestones/${m.number}`,
    labels_url: `${repoUrl}/milestones/${m.number}/labels`,
    id: m.id,
    node_id: nodeId("Milestone", m.id),
    number: m.number,
    state: m.state,
    title: m.title,
    description: m.description,
    creator,
    open_issues: m.open_issues,
    closed_issues: m.closed_issues,
    created_at: isoRequired(m.created_at),
    updated_at: isoRequired(m.updated_at),
    closed_at: iso(m.closed_at),
    due_on: iso(m.due_on),
  };
}

export interface IssueParts {
  user: UserJson;
  assignee: UserJson | null;
  labels: ReturnType<typeof labelJson>[];
  milestone: ReturnType<typeof milestoneJson> | null;
  comments: number;
}

export function issueJson(issue: IssueRow, parts: IssueParts, repoUrl: string, repoHtml: string) {
  const url = `${repoUrl}/issues/${issue.number}`;
  const html = `${repoHtml}/${issue.pull_request ? "pull" : "issues"}/${issue.number}`;
  return {
    id: issue.id,
    node_id: nodeId("Issue", issue.id),
    url,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: html,
    number: issue.number,
    state: issue.state,
    locked: issue.locked,
    title: issue.title,
    body: issue.body,
    user: parts.user,
    assignee: parts.assignee,
    labels: parts.labels,
    milestone: parts.milestone,
    comments: parts.comments,
    ...(issue.pull_request
      ? { pull_request: { url: `${repoUrl}/pulls/${issue.number}`, html_url: html, diff_url: `${html}.diff`, patch_url: `${html}.patch` } }
      : {}),
    closed_at: iso(issue.closed_at),
    created_at: isoRequired(issue.created_at),
    updated_at: isoRequired(issue.updated_at),
  };
}

export type IssueJson = ReturnType<typeof issueJson>;

export function issueCommentJson(
  c: { id: number; body: string; created_at: string | Date; updated_at: string | Date },
  user: UserJson,
  issueUrl: string,
  issueHtml: string,
  repoUrl: string,
) {
  return {
    id: c.id,
    node_id: nodeId("IssueComment", c.id),
    url: `${repoUrl}/issues/comments/${c.id}`,
    html_url: `${issueHtml}#issuecomment-${c.id}`,
    issue_url: issueUrl,
    user,
    body: c.body,
    created_at: isoRequired(c.created_at),
    updated_at: isoRequired(c.updated_at),
  };
}
