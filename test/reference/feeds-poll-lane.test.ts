/**
 * The poll lane (reference/http/poll-lane.ts) answers a repeated poll before Fastify routes it:
 * the 304 of a conditional poll, and the page again (no `If-None-Match`, or a tag that is not the
 * page's). These tests check that it does answer (its count moves), that its answers are the full
 * path's header for header (in order) and byte for byte, that its 200 counts against the rate
 * limit as the full path's does, and that it leaves alone every request whose answer it cannot
 * know: those then get the full path's answer (401, 403, 200, 304 from the hooks), and the count
 * stays put.
 */
import { request } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { basic, DEMO, useServer } from "./harness.ts";
import { auth, insertEvents, tokenFor } from "./feeds-fixtures.ts";

const t = useServer();
const PUBLIC = "/repos/octocat/hello-world/events";
const PRIVATE = "/repos/octocat/secret-plans/events";
let token = "";

beforeAll(async () => {
  await insertEvents(t.server.db, { actor: "octocat", repo: "octocat/hello-world", count: 3 }, t.api);
  await insertEvents(t.server.db, { actor: "octocat", repo: "octocat/secret-plans", count: 3 }, t.api);
  token = await tokenFor(t.server.db, "octocat", ["repo"]);
});

/** Status and raw header pairs (in order, names as sent), without `Date`, which moves. */
function raw(path: string, headers: Record<string, string>, method = "GET"): Promise<{ status: number; headers: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${t.api}${path}`, { method, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => {
        const pairs: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i]!.toLowerCase() !== "date") pairs.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode!, headers: pairs, body });
      });
    });
    req.on("error", reject).end();
  });
}

async function etagOf(path: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${t.api}${path}`, { headers });
  await res.arrayBuffer();
  return res.headers.get("etag")!;
}

describe("the poll lane", () => {
  it("sits in a server that keeps the settings Fastify gives its own (keep-alive 72 s, not Node's 5 s)", () => {
    expect(t.server.api.server.keepAliveTimeout).toBe(72_000);
    expect(t.server.api.initialConfig.keepAliveTimeout).toBe(72_000);
  });

  it("answers a repeated conditional poll with the full path's 304, header for header", async () => {
    // A URL this anonymous caller was never served: the first 304 comes from the full path.
    const path = `${PUBLIC}?per_page=30`;
    const etag = await etagOf(PUBLIC);
    const before = t.server.lane.answered;
    const full = await raw(path, { "if-none-match": etag });
    expect(full.status).toBe(304);
    expect(t.server.lane.answered).toBe(before);
    const lane = await raw(path, { "if-none-match": etag });
    expect(t.server.lane.answered).toBe(before + 1);
    expect(lane).toEqual(full);
    expect(lane.headers).toContain(`etag: ${etag}`);
  });

  it("answers a token's polls with the same scope and rate headers as the full path, without counting", async () => {
    const etag = await etagOf(PRIVATE, auth(token));
    const before = t.server.lane.answered;
    const answers = [];
    for (let n = 0; n < 3; n++) answers.push(await raw(PRIVATE, { ...auth(token), "if-none-match": `"other", W/${etag}` }));
    expect(t.server.lane.answered).toBe(before + 3);
    for (const answer of answers) {
      expect(answer.status).toBe(304);
      expect(answer.body).toBe("");
      expect(answer.headers).toEqual(expect.arrayContaining(["x-oauth-scopes: repo", "x-accepted-oauth-scopes: repo", "x-ratelimit-limit: 5000"]));
    }
    // Not counted: the remaining count is the same on each, and on the next full-path answer.
    const remaining = new Set(answers.map((a) => a.headers.find((h) => h.startsWith("x-ratelimit-remaining"))));
    expect(remaining.size).toBe(1);
    const counted = await fetch(`${t.api}${PRIVATE}`, { headers: auth(token) });
    await counted.arrayBuffer();
    expect(`x-ratelimit-remaining: ${Number(counted.headers.get("x-ratelimit-remaining")) + 1}`).toBe([...remaining][0]);
  });

  it("answers HEAD's 304 too, and leaves a HEAD that is not a 304 to Fastify", async () => {
    const etag = await etagOf(PUBLIC);
    await raw(PUBLIC, { "if-none-match": etag });
    const before = t.server.lane.answered;
    expect((await raw(PUBLIC, { "if-none-match": etag }, "HEAD")).status).toBe(304);
    expect(t.server.lane.answered).toBe(before + 1);
    const head = await raw(PUBLIC, { "if-none-match": '"stale"' }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect((await raw(PUBLIC, {}, "HEAD")).status).toBe(200);
    expect(t.server.lane.answered).toBe(before + 1);
  });

  it("answers a repeated page — no If-None-Match, or a stale one — with the full path's 200, header for header and byte for byte, counted", async () => {
    // A URL this token was never served (an ignored query parameter): the first answer is the full path's.
    const path = `${PUBLIC}?per_page=30&lane=page`;
    const before = t.server.lane.answered;
    const full = await raw(path, { ...auth(token), "if-none-match": '"stale"' });
    expect(full.status).toBe(200);
    expect(t.server.lane.answered).toBe(before);
    const again = await raw(path, auth(token));
    const stale = await raw(path, { ...auth(token), "if-none-match": '"stale", W/"other"' });
    expect(t.server.lane.answered).toBe(before + 2);
    const remainingOf = (answer: { headers: string[] }) => Number(answer.headers.find((h) => h.startsWith("x-ratelimit-remaining: "))!.slice("x-ratelimit-remaining: ".length));
    // Each 200 counts, the lane's as the full path's.
    expect([remainingOf(again), remainingOf(stale)]).toEqual([remainingOf(full) - 1, remainingOf(full) - 2]);
    const withoutRemaining = (answer: { status: number; headers: string[]; body: string }) => ({ ...answer, headers: answer.headers.filter((h) => !h.startsWith("x-ratelimit-remaining: ")) });
    expect(withoutRemaining(again)).toEqual(withoutRemaining(full));
    expect(withoutRemaining(stale)).toEqual(withoutRemaining(full));
    expect(full.headers.map((h) => h.slice(0, h.indexOf(":")))).toEqual([
      "etag", "x-poll-interval", "content-type", "x-oauth-scopes", "x-accepted-oauth-scopes",
      "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "content-length", "Connection", "Keep-Alive",
    ]);
    // And the next full-path answer (a URL not yet served) goes on counting from the lane's.
    const counted = await fetch(`${t.api}${path}&again=1`, { headers: { ...auth(token), "if-none-match": '"another"' } });
    await counted.arrayBuffer();
    expect(Number(counted.headers.get("x-ratelimit-remaining"))).toBe(remainingOf(full) - 3);
    // Anonymous callers too, with the anonymous limit's headers.
    const anonymous = await raw(path, {});
    expect(t.server.lane.answered).toBe(before + 2);
    const repeated = await raw(path, { "if-none-match": '"stale"' });
    expect(t.server.lane.answered).toBe(before + 3);
    expect(remainingOf(repeated)).toBe(remainingOf(anonymous) - 1);
    expect(withoutRemaining(repeated)).toEqual(withoutRemaining(anonymous));
    expect(t.violations).toEqual([]);
  });

  it("leaves a made-up token, a malformed header, Basic and access_token to the full path", async () => {
    const etag = await etagOf(PUBLIC, auth(token));
    expect((await raw(PUBLIC, { ...auth(token), "if-none-match": etag })).status).toBe(304);
    const before = t.server.lane.answered;
    const madeUp = await raw(PUBLIC, { authorization: "token 0000000000000000000000000000000000000000", "if-none-match": etag });
    expect(madeUp.status).toBe(401);
    expect(JSON.parse(madeUp.body)).toMatchObject({ message: "Bad credentials" });
    expect((await raw(PUBLIC, { authorization: "token 0000000000000000000000000000000000000000" })).status).toBe(401);
    expect((await raw(PUBLIC, { authorization: `token ${token} extra`, "if-none-match": etag })).status).toBe(401);
    expect((await raw(PUBLIC, { authorization: `token ${token} extra` })).status).toBe(401);
    // Basic is not a credential the feeds take: anonymous there, and never the lane's to judge.
    expect((await raw(PUBLIC, { authorization: basic(DEMO.octocat.login, DEMO.octocat.password), "if-none-match": etag })).status).toBe(304);
    expect((await raw(PUBLIC, { authorization: basic(DEMO.octocat.login, DEMO.octocat.password) })).status).toBe(200);
    expect((await raw(`${PUBLIC}?access_token=${token}`, { "if-none-match": etag })).status).toBe(304);
    expect((await raw(`${PUBLIC}?access_token=${token}`, { "if-none-match": etag })).status).toBe(304);
    expect((await raw(`${PUBLIC}?access_token=${token}`, {})).status).toBe(200);
    expect((await raw(`${PUBLIC}?access_token=${token}`, {})).status).toBe(200);
    expect(t.server.lane.answered).toBe(before);
  });

  it("stops answering once a new event changes the feed, and once the token is revoked", async () => {
    const fresh = await tokenFor(t.server.db, "octocat", ["repo"]);
    const etag = await etagOf(PUBLIC, auth(fresh));
    const first = t.server.lane.answered;
    expect((await raw(PUBLIC, { ...auth(fresh), "if-none-match": etag })).status).toBe(304);
    expect(t.server.lane.answered).toBe(first + 1);
    const lanePage = await raw(PUBLIC, auth(fresh));
    expect(t.server.lane.answered).toBe(first + 2);
    await insertEvents(t.server.db, { actor: "octocat", repo: "octocat/hello-world" }, t.api);
    const changed = await raw(PUBLIC, { ...auth(fresh), "if-none-match": etag });
    expect(t.server.lane.answered).toBe(first + 2);
    expect(changed.status).toBe(200);
    expect(changed.body).not.toBe(lanePage.body);
    const newTag = changed.headers.find((h) => h.startsWith("etag: "))!.slice("etag: ".length);
    expect(newTag).not.toBe(etag);
    expect((await raw(PUBLIC, { ...auth(fresh), "if-none-match": newTag })).status).toBe(304);
    const { deleteAuthorization } = await import("../../reference/store/authorizations.ts");
    const [{ id }] = (await t.server.db.query<{ id: number }>("select id from authorizations order by id desc limit 1")) as [{ id: number }];
    const before = t.server.lane.answered;
    await deleteAuthorization(t.server.db, id);
    expect((await raw(PUBLIC, { ...auth(fresh), "if-none-match": newTag })).status).toBe(401);
    expect((await raw(PUBLIC, auth(fresh))).status).toBe(401);
    expect((await raw(PUBLIC, { ...auth(fresh), "if-none-match": '"stale"' })).status).toBe(401);
    expect(t.server.lane.answered).toBe(before);
  });
});
