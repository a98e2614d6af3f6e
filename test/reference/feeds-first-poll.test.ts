/**
 * A viewer's first poll of a URL (a 200 on a stale `If-None-Match`, the URL never served to this
 * viewer) goes through the poll lane, which cannot answer it, and then through Fastify's hooks: both look the token up, and one SHA-256 of
 * it a request is enough (issue 43: the digest is remembered by the request, never by the token).
 * Counted at node:crypto's `hash`, replaced for the one request (syncBuiltinESMExports carries the
 * replacement to the modules that imported it by name) and put back after it.
 */
import crypto from "node:crypto";
import { syncBuiltinESMExports } from "node:module";
import { beforeAll, expect, it } from "vitest";
import { useServer } from "./harness.ts";
import { auth, insertEvents, tokenFor } from "./feeds-fixtures.ts";

const t = useServer();
const PUBLIC = "/repos/octocat/hello-world/events";
let token = "";

beforeAll(async () => {
  await insertEvents(t.server.db, { actor: "octocat", repo: "octocat/hello-world", count: 3 }, t.api);
  token = await tokenFor(t.server.db, "octocat", ["repo"]);
});

/** What `fn` hashed with node:crypto's `hash`, and its result. */
async function hashedDuring<T>(fn: () => Promise<T>): Promise<{ hashed: unknown[]; result: T }> {
  const real = crypto.hash;
  const hashed: unknown[] = [];
  crypto.hash = ((algorithm: string, data: string, encoding?: string) => (hashed.push(data), real(algorithm, data, encoding as never))) as typeof crypto.hash;
  syncBuiltinESMExports();
  try {
    return { hashed, result: await fn() };
  } finally {
    crypto.hash = real;
    syncBuiltinESMExports();
  }
}

it("hashes the token once for a first poll that the lane passes on to the full path", async () => {
  // The first request settles the token's lookup (from then on the lane can see it).
  await (await fetch(`${t.api}${PUBLIC}`, { headers: auth(token) })).arrayBuffer();
  const { hashed, result: status } = await hashedDuring(async () => {
    // A URL never served to this token (an ignored query parameter): the lane cannot answer it.
    const answered = t.server.lane.answered;
    const res = await fetch(`${t.api}${PUBLIC}?first=1`, { headers: { ...auth(token), "if-none-match": '"stale"' } });
    expect(t.server.lane.answered).toBe(answered);
    await res.arrayBuffer();
    return res.status;
  });
  expect(status).toBe(200);
  expect(hashed.filter((data) => data === token)).toHaveLength(1);
});
