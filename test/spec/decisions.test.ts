/**
 * Every place where the seed says "not shown" has one entry in spec/DECISIONS.md: the question
 * (marked "seed: not shown"), the choice and why. The list below is copied from the seed by hand
 * (each of its eleven "not shown" sentences; some name two gaps), so deleting or renaming a
 * decision fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const decisions = readFileSync(join(root, "spec/DECISIONS.md"), "utf8");

/** [where the seed says "not shown", the bold title of the DECISIONS.md entry that fills it]. */
const GAPS: [string, string][] = [
  ["Resources › Activity event: the payload contents for each event type", "Payload contents per event type"],
  ["Resources › Ping payload: hook, its fields", "Ping `hook` fields"],
  ["States and transitions: Transitions", "Issue state transitions"],
  ["Endpoints › C: GET /hooks response shape", "`GET /hooks` response shape"],
  ["Endpoints › C: the ping endpoint (path and payload)", "Ping endpoint and payload"],
  ["Endpoints › C: the endpoints that create, edit and list hooks, with the name parameter", "Hook endpoints and the `name` parameter"],
  ["Authentication › Non-web flow: request and response of the token-creation interface", "Token creation interface"],
  ["Authentication › Non-web flow: the two-factor handling", "Two-factor handling"],
  ["Events › Delivery headers: the hash algorithm of X-Hub-Signature", "Signature hash algorithm"],
  ["Events › Delivery headers: delivery retries and time-outs", "Delivery retries and time-outs"],
  ["Errors › Other: status codes of the OAuth token errors", "Status codes of token errors"],
  ["Errors › Other: error responses for the rest of the API", "Error responses for the rest of the API"],
  ["Limits: reset information and the response when the rate limit is exceeded", "Rate-limit reset and the exceeded response"],
  ["Versioning", "Versioning"],
];

/** Where entries titled `title` start: `- [D-RULE-ID] **title**` (the rule ID is the rule table's). */
function titleAt(title: string): RegExp {
  return new RegExp(`^- \\[D-[A-Z0-9-]+\\] \\*\\*${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\*\\*`, "gm");
}

/** The entry: from `- [ID] **title**` to the next bullet or heading. */
function entry(title: string): string | undefined {
  const start = decisions.search(titleAt(title));
  if (start < 0) return undefined;
  const rest = decisions.slice(start + 2);
  const end = rest.search(/\n(- |#)/);
  return (end < 0 ? rest : rest.slice(0, end)).replace(/\s+/g, " ");
}

describe("spec/DECISIONS.md fills every 'not shown' of the seed", () => {
  it.each(GAPS)("%s → %s", (_seed, title) => {
    const text = entry(title);
    expect(text, `no entry "- [D-…] **${title}**" in spec/DECISIONS.md`).toBeDefined();
    expect(text, "marks the question as a seed gap").toMatch(/\(seed: not shown/);
    // question — choice — why: the title, then the choice, then the reason, separated by em dashes.
    const parts = text!.split(" — ");
    expect(parts.length, "has a choice and a reason after the question").toBeGreaterThanOrEqual(3);
    expect(parts.at(-1)!.trim().length, "the reason is not empty").toBeGreaterThan(3);
  });

  it("has exactly one entry per gap", () => {
    for (const [, title] of GAPS) expect(decisions.match(titleAt(title))?.length ?? 0, title).toBe(1);
  });
});
