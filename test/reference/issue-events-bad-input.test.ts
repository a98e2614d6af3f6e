/**
 * The issue events API under bad or unusual input, over real HTTP: issue numbers and event ids
 * that are zero, negative, not numbers, beyond the database's integers or spelled in a way only
 * `Number()` reads (`0x1`, `+1`, ` 1`, `Infinity`) name nothing (404); decimal spellings (`01`,
 * `1.0`) name the number; bad pages are 422, pages far past the end are empty; owner and
 * repository names match whatever their case and `Link` uses the canonical names. Responses are
 * checked against the contract by the harness.
 */
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { expectInvalidField, useServer } from "./harness.ts";
import { auth, insertIssueEvent, tokenFor } from "./feeds-fixtures.ts";
import { ceiling } from "../ceilings.ts";

const t = useServer();
const labeled = JSON.parse(readFileSync(new URL("../../spec/examples/issue-event/valid-labeled.json", import.meta.url), "utf8")) as Record<string, unknown>;
const events: number[] = [];
// Anonymous callers get 60 requests an hour; these tests make more.
let token = "";

beforeAll(async () => {
  const db = t.server.db;
  await db.exec("delete from issue_events");
  token = await tokenFor(db, "octocat", []);
  const start = Date.now() - 3_600_000;
  for (let i = 0; i < 35; i++) events.push(await insertIssueEvent(db, t.api, "octocat/hello-world", 1, labeled, new Date(start + i * 1000)));
}, ceiling(60_000));

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
      await expectInvalidField(await get(`${path}?page=${encodeURIComponent(page)}`), "IssueEvent", "page");
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
    const path = "/repos/octocat/hello-world/issues/events";
    const gotten = await get(path);
    const body = Buffer.from(await gotten.arrayBuffer());
    expect(gotten.status).toBe(200);
    expect(body.length).toBeGreaterThan(0);
    // fetch (and node:http's parser) drop whatever follows a HEAD answer's headers: read the raw
    // bytes of the connection instead, so that a body sent after them would be seen.
    const head = await raw("HEAD", path);
    expect(head.status).toBe(200);
    expect(head.headers.get("link")).toBe(gotten.headers.get("link"));
    expect(head.headers.get("etag")).toBe(gotten.headers.get("etag"));
    expect(head.headers.get("content-type")).toBe(gotten.headers.get("content-type"));
    expect(head.headers.get("content-length")).toBe(String(body.length));
    expect(head.after.length, head.after.toString("utf8").slice(0, 80)).toBe(0);
    // The same reading of a GET does see its body: the check above can fail.
    expect((await raw("GET", path)).after.length).toBeGreaterThanOrEqual(body.length);
  });
});

/** A request over a plain socket (Connection: close): the status, the headers and every byte after them. */
function raw(method: "HEAD" | "GET", path: string): Promise<{ status: number; headers: Headers; after: Buffer }> {
  const url = new URL(t.api);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(url.port), url.hostname, () => {
      const lines = [`${method} ${path} HTTP/1.1`, `Host: ${url.host}`, `Authorization: ${auth(token).Authorization}`, "Connection: close"];
      socket.end(`${lines.join("\r\n")}\r\n\r\n`);
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error(`${method}: no end of the connection within 10 s`)));
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("end", () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf("\r\n\r\n");
      if (end < 0) return reject(new Error(`${method}: no complete header in ${JSON.stringify(all.toString("latin1"))}`));
      const [statusLine, ...fields] = all.subarray(0, end).toString("latin1").split("\r\n");
      const headers = new Headers();
      for (const field of fields) {
        const colon = field.indexOf(":");
        headers.append(field.slice(0, colon).trim(), field.slice(colon + 1).trim());
      }
      resolve({ status: Number(statusLine!.split(" ")[1]), headers, after: all.subarray(end + 4) });
    });
  });
}
