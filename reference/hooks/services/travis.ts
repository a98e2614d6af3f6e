/**
 * The `travis` service (the contract's own example of a service hook): a CI server that builds
 * on pushes and pull requests. It receives the standard webhook payload as a form, `POST
 * https://<domain>/` (or `<domain>` itself when it is a full http(s) URL) with `Content-Type:
 * application/x-www-form-urlencoded` and the body `payload=<JSON>&user=<user>&authorization=<hex
 * SHA-256 of user + token>` — the token itself never travels, the CI server recomputes the digest
 * from the token it knows. It does not take pings. Documented in ../README.md.
 */
import { sha256Hex } from "../../auth/secrets.ts";
import { urlProblem } from "../urls.ts";
import { REDACTED, type ServiceDefinition } from "./service.ts";

const SUPPORTED = ["issue_comment", "member", "public", "pull_request", "push"] as const;
const HOST = /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*(:\d{1,5})?$/;

/** `notify.travis-ci.org` → `https://notify.travis-ci.org/`; a full URL is kept. */
export function travisUrl(domain: string): string {
  return /^https?:\/\//i.test(domain) ? domain : `https://${domain}/`;
}

export const travis: ServiceDefinition = {
  name: "travis",
  title: "Travis CI",
  events: ["pull_request", "push"],
  supported_events: SUPPORTED,
  schema: [
    ["string", "user"],
    ["password", "token"],
    ["string", "domain"],
  ],
  required: ["user", "token", "domain"],
  urlKeys: [],
  check(key, value) {
    if (key !== "domain" || HOST.test(value)) return undefined;
    // A full URL is posted to as it is: the rule of every URL a hook posts to (../urls.ts).
    if (/^https?:\/\//i.test(value)) {
      const problem = urlProblem(value);
      return problem ? `domain ${problem}` : undefined;
    }
    return "domain must be a host name or an http(s) URL";
  },
  targets: (config) => (config.domain ? [["domain", travisUrl(config.domain)] as const] : []),
  deliver(config, event, payload) {
    if (!(SUPPORTED as readonly string[]).includes(event)) return undefined;
    const user = config.user ?? "";
    const form = new URLSearchParams({
      payload: JSON.stringify(payload),
      user,
      authorization: sha256Hex(user + (config.token ?? "")),
    });
    return { url: travisUrl(config.domain ?? ""), contentType: "application/x-www-form-urlencoded", body: form.toString() };
  },
  // The digest is what the CI server checks, and never changes while the token does not.
  redact(logged) {
    const form = new URLSearchParams(logged.body);
    if (!form.has("authorization")) return logged;
    form.set("authorization", REDACTED);
    return { url: logged.url, body: form.toString() };
  },
};
