/**
 * The issue events API over HTTP: one issue's events oldest first without `issue`, the
 * repository's newest first with `issue`, one event with `issue`; 30 per page with `Link`; 404
 * for unknown repositories, issues and events and for private repositories the caller cannot
 * see. Rows are written straight into `issue_events` with bodies from the contract's examples.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { useServer } from "./harness.ts";
import { auth, insertIssueEvent, tokenFor } from "./feeds-fixtures.ts";
import { ceiling } from "../ceilings.ts";

const t = useServer();
const example = (name: string) => JSON.parse(readFileSync(new URL(`../../spec/examples/issue-event/${name}.json`, import.meta.url), "utf8")) as Record<string, unknown>;
let octo: string;
let defunkt: string;
const issue1: number[] = [];
let issue2Event = 0;
let privateEvent = 0;

beforeAll(async () => {
  // Exact expectations: start from no issue events, whatever history the demo seed may carry.
  const db = t.server.db;
  await db.exec("delete from issue_events");
  const start = Date.now() - 3_600_000;
  const kinds = ["valid-labeled", "valid-renamed", "valid-closed-by-commit"];
  for (let i = 0; i < 35; i++) issue1.push(await insertIssueEvent(db, t.api, "octocat/hello-world", 1, example(kinds[i % 3]!), new Date(start + i * 1000)));
  issue2Event = await insertIssueEvent(db, t.api, "octocat/hello-world", 2, example("valid-closed-by-commit"), new Date(start + 100_000));
  privateEvent = await insertIssueEvent(db, t.api, "octocat/secret-plans", 1, example("valid-labeled"), new Date(start));
  octo = await tokenFor(t.server.db, "octocat", ["repo"]);
  defunkt = await tokenFor(t.server.db, "defunkt", ["repo"]);
}, ceiling(60_000));

const get = (path: string, token: string | null = octo) => fetch(`${t.api}${path}`, { headers: token ? auth(token) : {} });

describe("issue events", () => {
  it("lists one issue's events oldest first, 30 per page, without issue, with Link", async () => {
    const first = await get("/repos/octocat/hello-world/issues/1/events");
    expect(first.status).toBe(200);
    const page1 = (await first.json()) as { id: number; issue?: unknown }[];
    expect(page1.map((e) => e.id)).toEqual(issue1.slice(0, 30));
    expect(page1.every((e) => e.issue === undefined)).toBe(true);
    expect(first.headers.get("link")).toBe(
      `<${t.api}/repos/octocat/hello-world/issues/1/events?page=2>; rel="next", <${t.api}/repos/octocat/hello-world/issues/1/events?page=2>; rel="last"`,
    );
    const second = await get("/repos/octocat/hello-world/issues/1/events?page=2");
    expect(((await second.json()) as { id: number }[]).map((e) => e.id)).toEqual(issue1.slice(30));
    expect(second.headers.get("link")).toContain('rel="prev"');
    expect(second.headers.get("link")).not.toContain('rel="next"');
  });

  it("lists a repository's events newest first, each with its issue", async () => {
    const res = await get("/repos/octocat/hello-world/issues/events");
    expect(res.status).toBe(200);
    const events = (await res.json()) as { id: number; issue: { number: number; url: string; user: { login: string } } }[];
    expect(events).toHaveLength(30);
    expect(events[0]!.id).toBe(issue2Event);
    expect(events[0]!.issue).toMatchObject({ number: 2, url: `${t.api}/repos/octocat/hello-world/issues/2`, user: { login: "defunkt" } });
    expect(events.slice(1).map((e) => e.id)).toEqual([...issue1].reverse().slice(0, 29));
    expect(events[1]!.issue.number).toBe(1);
    const last = await get("/repos/octocat/hello-world/issues/events?page=2");
    expect(((await last.json()) as unknown[]).length).toBe(6);
  });

  it("gets one event with its issue", async () => {
    const res = await get(`/repos/octocat/hello-world/issues/events/${issue1[0]}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: number; issue: { number: number; assignee: { login: string } | null } };
    expect(body.id).toBe(issue1[0]);
    expect(body.issue).toMatchObject({ number: 1, assignee: { login: "octocat" } });
  });

  it("answers unknown repositories, issues and events with 404", async () => {
    for (const path of [
      "/repos/octocat/nope/issues/events",
      "/repos/octocat/hello-world/issues/99/events",
      "/repos/octocat/hello-world/issues/99999999999/events",
      "/repos/octocat/hello-world/issues/abc/events",
      `/repos/octocat/hello-world/issues/events/${privateEvent}`,
      "/repos/octocat/hello-world/issues/events/999999",
      "/repos/octocat/hello-world/issues/events/99999999999999999999",
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { message: string }).message).toBe("Not Found");
    }
  });

  it("hides private repositories from callers who cannot see them", async () => {
    for (const path of ["/repos/octocat/secret-plans/issues/events", "/repos/octocat/secret-plans/issues/1/events", `/repos/octocat/secret-plans/issues/events/${privateEvent}`]) {
      expect((await get(path, null)).status, `${path} anonymously`).toBe(404);
      expect((await get(path, defunkt)).status, `${path} as defunkt`).toBe(404);
      expect((await get(path)).status, `${path} as octocat`).toBe(200);
    }
  });

  it("refuses bad pages with 422 and serves empty pages far past the end", async () => {
    for (const page of ["0", "-1", "x"]) expect((await get(`/repos/octocat/hello-world/issues/events?page=${page}`)).status).toBe(422);
    const far = await get("/repos/octocat/hello-world/issues/events?page=100000000");
    expect(far.status).toBe(200);
    expect(await far.json()).toEqual([]);
  });
});
