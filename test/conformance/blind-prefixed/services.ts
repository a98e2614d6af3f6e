// services.ts — the service hook catalogue served by GET /hooks (name, title, default and supported events, config schema).

export interface Service { name: string; title: string; events: string[]; supported_events: string[]; schema: [string, string][] }

export const SERVICES: Service[] = [
  {
    name: "travis", title: "Travis CI", events: ["push", "pull_request"],
    supported_events: ["push", "pull_request", "issue_comment", "public", "member"],
    schema: [["string", "user"], ["password", "token"], ["string", "domain"]],
  },
  {
    name: "email", title: "Email", events: ["push"], supported_events: ["push"],
    schema: [["string", "address"], ["password", "secret"], ["boolean", "send_from_author"]],
  },
  {
    name: "irc", title: "IRC", events: ["push", "pull_request"],
    supported_events: ["push", "pull_request", "issues", "issue_comment", "pull_request_review_comment", "gollum", "commit_comment"],
    schema: [["string", "server"], ["string", "port"], ["string", "room"], ["string", "nick"], ["password", "password"], ["boolean", "ssl"]],
  },
];

export const serviceByName = (name: string): Service | undefined => SERVICES.find((s) => s.name === name);
