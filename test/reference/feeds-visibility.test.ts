/**
 * Who sees which event, feed by feed (seed *Endpoints › A*, DECISIONS "Anonymous access"): private
 * events only for a user with access to the repository (owner, collaborator, organization member)
 * through a token with `repo`; 404 for a private repository the caller cannot see; received events
 * from watched repositories and followed users; the network is the repository and its forks; the
 * organization dashboard only for that user, a member.
 *
 * Demo seed: hubot and defunkt watch octocat/hello-world and follow octocat; octocat watches
 * octo-org/hello-world; hubot collaborates on octocat/secret-plans and octo-org/internal-tools;
 * octo-org's members are octocat and hubot; defunkt/hello-world is a fork of octocat/hello-world.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useServer } from "./harness.ts";
import { auth, eventIds, insertEvents, tokenFor } from "./feeds-fixtures.ts";
import { ceiling } from "../ceilings.ts";

const t = useServer();
const E: Record<"A" | "B" | "C" | "D" | "E", string> = { A: "", B: "", C: "", D: "", E: "" };
const tokens: Record<string, string> = {};

beforeAll(async () => {
  // Exact expectations: start from no events, whatever history the demo seed may carry.
  await t.server.db.exec("delete from events");
  const db = t.server.db;
  const now = Date.now();
  const rows: [keyof typeof E, string, string][] = [
    ["A", "octocat", "octocat/hello-world"], // public
    ["B", "octocat", "octocat/secret-plans"], // private
    ["C", "hubot", "octo-org/hello-world"], // public, organization
    ["D", "hubot", "octo-org/internal-tools"], // private, organization
    ["E", "defunkt", "defunkt/hello-world"], // public fork
  ];
  for (const [i, [name, actor, repo]] of rows.entries()) {
    E[name] = String((await insertEvents(db, { actor, repo, createdAt: new Date(now - (i + 1) * 1000) }, t.api))[0]);
  }
  tokens.octoRepo = await tokenFor(db, "octocat", ["repo"]);
  tokens.octoNone = await tokenFor(db, "octocat", []);
  tokens.octoPublic = await tokenFor(db, "octocat", ["public_repo"]);
  tokens.hubotRepo = await tokenFor(db, "hubot", ["repo"]);
  tokens.hubotNone = await tokenFor(db, "hubot", ["user"]);
  tokens.defunktRepo = await tokenFor(db, "defunkt", ["repo"]);
}, ceiling(60_000));

type Who = "anon" | keyof typeof tokens | string;

async function get(path: string, who: Who): Promise<Response> {
  return fetch(`${t.api}${path}`, { headers: who === "anon" ? {} : auth(tokens[who]!) });
}

/** Expected event names, in feed order, per caller; a number is the expected status. */
async function check(path: string, expected: Record<Who, (keyof typeof E)[] | number>): Promise<void> {
  for (const [who, want] of Object.entries(expected)) {
    const res = await get(path, who);
    if (typeof want === "number") {
      expect(res.status, `${path} as ${who}`).toBe(want);
      continue;
    }
    expect(res.status, `${path} as ${who}`).toBe(200);
    expect(await eventIds(res), `${path} as ${who}`).toEqual(want.map((n) => E[n]));
  }
}

describe("feed visibility", () => {
  it("/events: public events only, whoever asks", async () => {
    await check("/events", { anon: ["A", "C", "E"], octoRepo: ["A", "C", "E"], hubotRepo: ["A", "C", "E"] });
  });

  it("repository feed: a private repository is 404 without access and the repo scope", async () => {
    await check("/repos/octocat/secret-plans/events", { anon: 404, octoNone: 404, octoPublic: 404, defunktRepo: 404, octoRepo: ["B"], hubotRepo: ["B"] });
    await check("/repos/octo-org/internal-tools/events", { anon: 404, defunktRepo: 404, hubotNone: 404, octoRepo: ["D"], hubotRepo: ["D"] });
    await check("/repos/octocat/hello-world/events", { anon: ["A"], defunktRepo: ["A"] });
  });

  it("repository feed: private events of a public repository only for those with access", async () => {
    const [old] = await insertEvents(t.server.db, { actor: "octocat", repo: "octo-org/hello-world", public: false, createdAt: new Date(Date.now() - 3_600_000) }, t.api);
    const path = "/repos/octo-org/hello-world/events";
    expect(await eventIds(await get(path, "anon"))).toEqual([E.C]);
    expect(await eventIds(await get(path, "defunktRepo"))).toEqual([E.C]);
    expect(await eventIds(await get(path, "hubotNone"))).toEqual([E.C]);
    expect(await eventIds(await get(path, "hubotRepo"))).toEqual([E.C, String(old)]);
    await t.server.db.query("delete from events where id = $1", [old]);
  });

  it("network feed: the repository and its forks, public events only", async () => {
    await check("/networks/octocat/hello-world/events", { anon: ["A", "E"], octoRepo: ["A", "E"] });
    await check("/networks/defunkt/hello-world/events", { anon: ["A", "E"] });
    // A private repository has no public network events; those who cannot see it get 404.
    await check("/networks/octocat/secret-plans/events", { anon: 404, defunktRepo: 404, octoRepo: [] });
  });

  it("organization feed: public events of the organization's repositories", async () => {
    await check("/orgs/octo-org/events", { anon: ["C"], hubotRepo: ["C"], octoRepo: ["C"] });
  });

  it("user events: private ones only for that user with the repo scope", async () => {
    await check("/users/octocat/events", { anon: ["A"], octoNone: ["A"], octoPublic: ["A"], hubotRepo: ["A"], octoRepo: ["A", "B"] });
    await check("/users/octocat/events/public", { anon: ["A"], octoRepo: ["A"] });
    await check("/users/hubot/events", { anon: ["C"], hubotRepo: ["C", "D"], octoRepo: ["C"] });
  });

  it("received events: watched repositories and followed users, private ones only for that user", async () => {
    await check("/users/hubot/received_events", { anon: ["A"], octoRepo: ["A"], hubotNone: ["A"], hubotRepo: ["A", "B"] });
    await check("/users/hubot/received_events/public", { anon: ["A"], hubotRepo: ["A"] });
    await check("/users/defunkt/received_events", { anon: ["A"], defunktRepo: ["A"] });
    await check("/users/octocat/received_events", { anon: ["C"], octoRepo: ["C"] });
  });

  it("organization dashboard: only that user, a member, with the repo scope (the operation's only scope)", async () => {
    // The operation takes no anonymous access and accepts only `repo` (403 naming it otherwise).
    await check("/users/hubot/events/orgs/octo-org", { anon: 401, octoRepo: 404, defunktRepo: 404, hubotNone: 403, hubotRepo: ["C", "D"] });
    await check("/users/octocat/events/orgs/octo-org", { octoRepo: ["C", "D"], octoNone: 403 });
    await check("/users/defunkt/events/orgs/octo-org", { defunktRepo: 404 });
    await check("/users/hubot/events/orgs/nope", { hubotRepo: 404 });
    await check("/users/hubot/events/orgs/octocat", { hubotRepo: 404 });
  });

  it("caches per visibility class: one viewer's private page never reaches another", async () => {
    // Warm the private view first, then ask anonymously for the same feed and page.
    expect(await eventIds(await get("/users/octocat/events", "octoRepo"))).toEqual([E.A, E.B]);
    expect(await eventIds(await get("/users/octocat/events", "anon"))).toEqual([E.A]);
    expect(await eventIds(await get("/users/octocat/events", "hubotRepo"))).toEqual([E.A]);
  });
});
