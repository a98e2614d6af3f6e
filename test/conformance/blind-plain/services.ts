// services.ts — the service hook catalog served by GET /hooks, and which config field (if any) receives deliveries.
export interface Service {
  name: string; title: string; events: string[]; supported_events: string[];
  schema: [string, string][]; required: string[]; deliverTo?: string;
}

export const SERVICES: readonly Service[] = [
  {
    name: "jenkins", title: "Jenkins (GitHub plugin)", events: ["push"], supported_events: ["push"],
    schema: [["string", "jenkins_hook_url"]], required: ["jenkins_hook_url"], deliverTo: "jenkins_hook_url",
  },
  {
    name: "travis", title: "Travis CI", events: ["push", "pull_request"],
    supported_events: ["push", "pull_request", "issue_comment", "public", "member"],
    schema: [["string", "user"], ["password", "token"], ["string", "domain"]], required: ["token"],
  },
  {
    name: "email", title: "Email", events: ["push"], supported_events: ["push"],
    schema: [["string", "address"], ["password", "secret"], ["boolean", "send_from_author"]], required: ["address"],
  },
];

export const service = (name: string): Service | undefined => SERVICES.find((s) => s.name === name);

export const catalogObj = (s: Service): Record<string, unknown> =>
  ({ name: s.name, events: s.events, supported_events: s.supported_events, title: s.title, schema: s.schema });
