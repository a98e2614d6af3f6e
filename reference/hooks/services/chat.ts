/**
 * The `chat` service: one line of text per event, posted to a chat room's incoming-webhook URL
 * (the format most chat products accept): `POST <webhook_url>` with `Content-Type:
 * application/json` and the body `{"text": "…"}` (plus `"channel"` when configured). It takes
 * pushes, issues, issue comments, pull requests, releases and the ping sent when the hook is
 * created, which tells the room the hook works. Documented in ../README.md.
 */
import { redactUrl, type ServiceDefinition } from "./service.ts";

type Json = Record<string, unknown>;

const MAX_COMMITS = 5;

function obj(value: unknown): Json {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}

function str(value: unknown): string {
  return typeof value === "string" || typeof value === "number" ? String(value) : "";
}

/** `refs/heads/main` → `main`; `refs/tags/v1` → `v1`. */
function shortRef(ref: string): string {
  return ref.replace(/^refs\/(heads|tags)\//, "");
}

function pushText(p: Json, who: string, listCommits: boolean): string {
  const branch = shortRef(str(p.ref));
  if (p.deleted === true) return `${who} deleted ${branch}`;
  const commits = Array.isArray(p.commits) ? p.commits.map(obj) : [];
  if (p.created === true && commits.length === 0) return `${who} created ${branch}`;
  let line = `${who} pushed ${commits.length} commit${commits.length === 1 ? "" : "s"} to ${branch}`;
  if (str(p.compare)) line += ` ${str(p.compare)}`;
  if (!listCommits) return line;
  const lines = commits.slice(0, MAX_COMMITS).map((c) => `${str(c.id).slice(0, 7)} ${str(c.message).split("\n")[0]} - ${str(obj(c.author).name)}`);
  if (commits.length > MAX_COMMITS) lines.push(`… and ${commits.length - MAX_COMMITS} more`);
  return [line, ...lines].join("\n");
}

/** The message for `event`, or undefined for an event this service does not post. */
export function chatText(event: string, p: Json, listCommits = false): string | undefined {
  const repo = str(obj(p.repository).full_name);
  const org = str(obj(p.organization).login);
  const who = str(obj(p.sender).login) || str(obj(p.pusher).name) || "someone";
  const prefix = `[${repo || org}] `;
  const action = str(p.action);
  switch (event) {
    case "push":
      return prefix + pushText(p, who, listCommits);
    case "issues": {
      const issue = obj(p.issue);
      return `${prefix}${who} ${action} issue #${str(issue.number)}: ${str(issue.title)} ${str(issue.html_url)}`.trimEnd();
    }
    case "issue_comment": {
      const issue = obj(p.issue);
      return `${prefix}${who} commented on issue #${str(issue.number)}: ${str(issue.title)} ${str(obj(p.comment).html_url)}`.trimEnd();
    }
    case "pull_request": {
      const pr = obj(p.pull_request);
      const verb = action === "closed" && pr.merged_at ? "merged" : action;
      return `${prefix}${who} ${verb} pull request #${str(pr.number ?? p.number)}: ${str(pr.title)} ${str(pr.html_url)}`.trimEnd();
    }
    case "release": {
      const release = obj(p.release);
      return `${prefix}${who} ${action} release ${str(release.name) || str(release.tag_name)} ${str(release.html_url)}`.trimEnd();
    }
    case "ping":
      return `${prefix}This room now receives the hook's events. ${str(p.zen)}`.trimEnd();
    default:
      return undefined;
  }
}

export const chat: ServiceDefinition = {
  name: "chat",
  title: "Chat room",
  events: ["push"],
  supported_events: ["issue_comment", "issues", "pull_request", "push", "release"],
  schema: [
    // A password key: an incoming-webhook URL is its own credential (whoever has it can post to
    // the room), so it is write-only like travis' token — sealed at rest, never served back, kept
    // by an edit that leaves it out — as the delivery log already hid it (D-REF-HOOKS-LOG-REDACTION).
    ["password", "webhook_url"],
    ["string", "channel"],
    ["boolean", "list_commits"],
  ],
  required: ["webhook_url"],
  urlKeys: ["webhook_url"],
  deliver(config, event, payload) {
    const text = chatText(event, payload, config.list_commits === "1");
    if (text === undefined || !config.webhook_url) return undefined;
    const body: Record<string, string> = { text };
    if (config.channel) body.channel = config.channel;
    return { url: config.webhook_url, contentType: "application/json", body: JSON.stringify(body) };
  },
  // An incoming-webhook URL is its own credential: whoever has it can post to the room.
  redact: (logged) => ({ url: redactUrl(logged.url), body: logged.body }),
};
