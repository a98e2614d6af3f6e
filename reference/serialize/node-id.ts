/**
 * `node_id`: the counterpart's global ID of an object, which the reference sends on the objects
 * of a payload the counterpart gives one — accounts, repositories, issues, pull requests, labels,
 * milestones, comments, releases, deployments and their statuses, teams (spec/DECISIONS.md,
 * D-WEBHOOK-NODE-ID). The seed has no such field; receivers
 * typed from the counterpart's schemas expect it. Its form is the counterpart's legacy one,
 * base64 of `0<length of type>:<type><id>` (`MDQ6VXNlcjE=` for user 1), so it is stable, unique
 * across object kinds, and opaque: receivers compare it, never parse it.
 */
export type NodeType =
  | "User"
  | "Organization"
  | "Bot"
  | "Repository"
  | "Issue"
  | "PullRequest"
  | "Label"
  | "Milestone"
  | "IssueComment"
  | "PullRequestReviewComment"
  | "CommitComment"
  | "Release"
  | "Deployment"
  | "DeploymentStatus"
  | "Team";

export function nodeId(type: NodeType, id: number): string {
  return Buffer.from(`0${type.length}:${type}${id}`).toString("base64");
}
