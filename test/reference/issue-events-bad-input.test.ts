/**
 * The issue events API under bad or unusual input, over real HTTP: issue numbers and event ids
 * that are zero, negative, not numbers, beyond the database's integers or spelled in a way only
 * `Number()` reads (`0x1`, `+1`, ` 1`, `Infinity`) name nothing (404); decimal spellings (`01`,
 * `1.0`) name the number; bad pages are 422, pages far past the end are empty; owner and
 * repository names match whatever their case and `Link` uses the canonical names. Responses are
 * checked against the contract by the harness.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { useServer } from "./harness.ts";
import { auth, ids, tokenFor } from "./feeds-fixtures.ts";

const t = useServer();
const labeled = JSON.parse(readFileSync(new URL("../../spec/examples/issue-event/valid-labeled.json", import.meta.url), "utf8")) as Record<string, unknown>;
const events: number[] = [];
// Anonymous callers get 60 requests an hour; these tests make more.
let token = "";

beforeAll(async () => {
  const db = t.server.db;
  await db.exec("delete from issue_events");
  const repo = await ids(db).repo("octocat/hello-world");
  const issue = (await db.query<{ id: number }>("select id::int as id from issues where repo_id = $1 and number = 1", [repo.id]))[0]!;
  const actor = await ids(db).account("octocat");
  token = await tokenFor(db, "octocat", []);
  const start = Date.now() - 3_600_000;
  for (let i = 0; i < 35; i++) {
    const row = (
      await db.query<{ id: number }>(
        "insert into issue_events (repo_id, issue_id, actor_id, event, body, created_at) values ($1, $2, $3, $4, $5::jsonb, $6) returning id::int as id",
        [repo.id, issue.id, actor, labeled.event, JSON.stringify(labeled), new Date(start + i * 1000).toISOString()],
      )
    )[0]!;
    await db.query("update issue_events set body = body || jsonb_build_object('id', id, 'url', $2::text) where id = $1", [row.id, `${t.api}/repos/octocat/hello-world/issues/events/${row.id}`]);
    events.push(row.id);
  }
}, 60_000);

const get = (path: string, init: RequestInit = {}) => fetch(`${t.api}${path}`, { ...init, headers: auth(token) });

async function expectNotFound(path: string): Promise<void> {
  const res = await get(path);
  expect(res.status, path).toBe(404);
  expect(await res.json(), path).toEqual({ message: "Not Found", documentation_url: expect.any(String) });
}

describe("issue numbers", () => {
  it.each(["0", "-1", "abc", "1.5", "1e400", "2147483648", "9223372036854775808", "99999999999999999999999", "0x1", "0b1", "+1", "%201", "1%20", "Infinity", "%00"])(
    "/issues/%s/events names nothing: 404",
    (n) => expectNotFound(`/repos/octocat/hello-world/issues/${n}/events`),
  );

  it("decimal spellings of 1 are issue 1, with Link on the canonical number", async () => {
    for (const n of ["01", "1.0", "1e0"]) {
      const res = await get(`/repos/octocat/hello-world/issues/${n}/events`);
      expect(res.status, n).toBe(200);
      expect(((await res.json()) as { id: number }[]).map((e) => e.id), n).toEqual(events.slice(0, 30));
      expect(res.headers.get("link"), n).toContain(`<${t.api}/repos/octocat/hello-world/issues/1/events?page=2>; rel="next"`);
    }
  });
});

describe("event ids", () => {
  it.each(["0", "-5", "abc", "2147483648", "9223372036854775807", "9223372036854775808", "99999999999999999999999", "0x1", "+1", "%201", "Infinity"])(
    "/issues/events/%s names nothing: 404",
    (id) => expectNotFound(`/repos/octocat/hello-world/issues/events/${id}`),
  );

  it("an event id in decimal with a leading zero is that event", async () => {
    const res = await get(`/repos/octocat/hello-world/issues/events/0${events[0]}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: number }).id).toBe(events[0]);
  });

  it("an event of one repository is not found under another", () => expectNotFound(`/repos/octo-org/hello-world/issues/events/${events[0]}`));
});

describe("pages", () => {
  for (const path of ["/repos/octocat/hello-world/issues/events", "/repos/octocat/hello-world/issues/1/events"]) {
    it.each(["0", "-1", "1.5", "abc", "", "0x2", "+2", "Infinity", "1e309"])(`${path}?page=%j is 422 invalid on page`, async (page) => {
      const res = await get(`${path}?page=${encodeURIComponent(page)}`);
      expect(res.status).toBe(422);
      const body = (await res.json()) as { message: string; errors: { resource: string; field: string; code: string }[] };
      expect(body.message).toBe("Validation Failed");
      expect(body.errors).toEqual([expect.objectContaining({ resource: "IssueEvent", field: "page", code: "invalid" })]);
    });

    it(`${path}: a page far past the end (beyond any integer offset) is empty, with first and prev`, async () => {
      for (const page of ["3", "99999999999", "99999999999999999999"]) {
        const res = await get(`${path}?page=${page}`);
        expect(res.status, page).toBe(200);
        expect(await res.json(), page).toEqual([]);
        expect(res.headers.get("link"), page).toBe(`<${t.api}${path}?page=1>; rel="first", <${t.api}${path}?page=2>; rel="prev"`);
      }
    });
  }

  it("per_page is ignored: 30 per page", async () => {
    const res = await get("/repos/octocat/hello-world/issues/events?per_page=100");
    expect(((await res.json()) as unknown[]).length).toBe(30);
  });
});

describe("names and methods", () => {
  it("owner and repository match in any case; Link uses the canonical names", async () => {
    const res = await get("/repos/OCTOCAT/Hello-World/issues/events");
    expect(res.status).toBe(200);
    expect(res.headers.get("link")).toContain(`<${t.api}/repos/octocat/hello-world/issues/events?page=2>; rel="next"`);
  });

  it.each(["/repos/octocat/hello-world.git/issues/events", "/repos/octocat/hello%2Fworld/issues/events", "/repos/octocat%2Fhello-world/issues/events", "/repos/octocat/hello-world/issues/events/", "/repos/octocat/h%C3%A9llo/issues/events"])(
    "%s is 404",
    (path) => expectNotFound(path),
  );

  it("HEAD answers the GET's status and headers without a body", async () => {
    const res = await get("/repos/octocat/hello-world/issues/events", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("link")).toContain('rel="next"');
    expect(await res.text()).toBe("");
  });
});
