/**
 * Who may manage hooks, over HTTP. Repository hooks: the owner, an `admin` collaborator, or an
 * admin of the owning organization — everyone else gets 404, on public and private repositories
 * alike. Organization hooks: organization admins only. Scopes as the seed's table (read / write /
 * admin:repo_hook, `repo`, admin:org_hook), refused with 403 naming them. An OAuth token acts
 * only on the organization hooks its application created; a personal token only on those created
 * with a personal token. Tokens only: anonymous and Basic callers are 401.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "../../reference/auth/scopes.ts";
import { createApplication, findApplication } from "../../reference/store/applications.ts";
import { eventually } from "./deliveries-fixtures.ts";
import { basic, DEMO } from "./harness.ts";
import { hookToken, ORG_HOOKS, REPO_HOOKS, useHookApi, webhook } from "./hooks-fixtures.ts";
import { ceiling } from "../ceilings.ts";

const api = useHookApi();
const { t, call } = api;
let counter = 0;
const fresh = () => `https://access.example/hooks/${++counter}`;
/** A URL where nothing listens: the hook's deliveries fail at once and are logged. */
const refused = () => `http://127.0.0.1:9/access/${++counter}`;
const token = (login: string, scopes: Scope[], appId: number | null = null) => hookToken(t.server.db, login, scopes, appId);

let demoAppId: number;
let otherAppId: number;

beforeAll(async () => {
  demoAppId = (await findApplication(t.server.db, DEMO.app.clientId))!.id;
  otherAppId = (
    await createApplication(t.server.db, { clientId: "hooks-other-app", clientSecret: "hooks-other-secret", name: "Other", url: "https://other.example", callbackUrl: "https://other.example/cb" })
  ).id;
});

describe("repository hooks: administrators only", () => {
  it.each([
    { who: "octocat", repo: "octocat/hello-world", status: 200, why: "owner" },
    { who: "octocat", repo: "octocat/secret-plans", status: 200, why: "owner of a private repository" },
    { who: "octocat", repo: "octo-org/hello-world", status: 200, why: "organization admin" },
    { who: "hubot", repo: "octo-org/internal-tools", status: 200, why: "admin collaborator of a private repository" },
    { who: "hubot", repo: "octo-org/hello-world", status: 404, why: "organization member, not admin" },
    { who: "hubot", repo: "octocat/secret-plans", status: 404, why: "push collaborator" },
    { who: "hubot", repo: "octocat/hello-world", status: 404, why: "no relation to a public repository" },
    { who: "defunkt", repo: "octocat/hello-world", status: 404, why: "a fork's owner" },
    { who: "defunkt", repo: "octo-org/internal-tools", status: 404, why: "a private repository they cannot see" },
    { who: "octocat", repo: "octocat/no-such-repo", status: 404, why: "no such repository" },
  ])("$who on $repo ($why): $status", async ({ who, repo, status }) => {
    const caller = await token(who, ["admin:repo_hook"]);
    const path = `/repos/${repo}/hooks`;
    expect((await call("GET", path, caller)).status).toBe(status);
    const createdStatus = (await call("POST", path, caller, webhook(fresh()))).status;
    expect(createdStatus).toBe(status === 200 ? 201 : 404);
  });

  it("answers 404 to a non-administrator for every operation on an existing hook", async () => {
    const id = (await call("POST", REPO_HOOKS, api.token, webhook(fresh()))).body.id;
    const hubot = await token("hubot", ["admin:repo_hook", "repo"]);
    const path = `${REPO_HOOKS}/${id}`;
    expect((await call("GET", path, hubot)).status).toBe(404);
    expect((await call("PATCH", path, hubot, { active: false })).status).toBe(404);
    expect((await call("DELETE", path, hubot)).status).toBe(404);
    const hook = (await call("GET", path, api.token)).body;
    expect(hook.active).toBe(true);
  });

  it("accepts any casing of the owner and repository, and serves the canonical names", async () => {
    const reply = await call("POST", "/repos/OctoCat/Hello-World/hooks", api.token, webhook(fresh()));
    expect(reply.status).toBe(201);
    expect(reply.body.url).toBe(`${t.api}/repos/octocat/hello-world/hooks/${reply.body.id}`);
  });
});

describe("repository hook scopes", () => {
  let hookId: number;
  beforeAll(async () => {
    hookId = (await call("POST", REPO_HOOKS, api.token, webhook(fresh()))).body.id;
  });

  it.each([
    { scopes: ["read:repo_hook"], list: 200, get: 200, create: 403, edit: 403, remove: 403 },
    { scopes: ["write:repo_hook"], list: 200, get: 200, create: 201, edit: 200, remove: 403 },
    { scopes: ["admin:repo_hook"], list: 200, get: 200, create: 201, edit: 200, remove: 204 },
    { scopes: ["repo"], list: 200, get: 200, create: 201, edit: 200, remove: 204 },
    { scopes: ["public_repo"], list: 403, get: 403, create: 403, edit: 403, remove: 403 },
    { scopes: ["admin:org_hook", "user"], list: 403, get: 403, create: 403, edit: 403, remove: 403 },
    { scopes: [], list: 403, get: 403, create: 403, edit: 403, remove: 403 },
  ] as { scopes: Scope[]; list: number; get: number; create: number; edit: number; remove: number }[])(
    "$scopes: list $list, get $get, create $create, edit $edit, delete $remove",
    async ({ scopes, list, get, create, edit, remove }) => {
      const caller = await token("octocat", scopes);
      const base = REPO_HOOKS;
      // Each scope deletes a hook of its own, so the shared one survives for the next row.
      const own = (await call("POST", base, api.token, webhook(fresh()))).body.id;
      const replies = {
        list: await call("GET", base, caller),
        get: await call("GET", `${base}/${hookId}`, caller),
        create: await call("POST", base, caller, webhook(fresh())),
        edit: await call("PATCH", `${base}/${hookId}`, caller, { active: true }),
        remove: await call("DELETE", `${base}/${own}`, caller),
      };
      expect({
        list: replies.list.status,
        get: replies.get.status,
        create: replies.create.status,
        edit: replies.edit.status,
        remove: replies.remove.status,
      }).toEqual({ list, get, create, edit, remove });
      for (const reply of Object.values(replies)) {
        if (reply.status === 403) {
          expect(reply.body.message).toMatch(/^Missing scope/);
          expect(reply.headers.get("x-accepted-oauth-scopes")).toMatch(/repo/);
        }
      }
      expect(replies.remove.status === 403 ? replies.remove.headers.get("x-accepted-oauth-scopes") : "admin:repo_hook, repo").toBe("admin:repo_hook, repo");
    },
  );

  it("refuses callers without a token: anonymous and Basic are 401", async () => {
    const base = REPO_HOOKS;
    for (const headers of [{}, { Authorization: basic(DEMO.octocat.login, DEMO.octocat.password) }] as Record<string, string>[]) {
      for (const [method, path] of [["GET", base], ["POST", base], ["GET", `${base}/${hookId}`], ["PATCH", `${base}/${hookId}`], ["DELETE", `${base}/${hookId}`], ["GET", ORG_HOOKS]] as const) {
        const reply = await call(method, path, null, method === "POST" ? webhook(fresh()) : method === "PATCH" ? {} : undefined, headers);
        expect(reply.status, `${method} ${path}`).toBe(401);
        expect(reply.body.message).toBe("Requires authentication");
      }
    }
    expect((await call("GET", `${base}/${hookId}`, "0123456789abcdef0123456789abcdef01234567")).status).toBe(401);
  });
});

describe("organization hooks", () => {
  it.each([
    { who: "octocat", scopes: ["admin:org_hook"], status: 200, why: "organization admin" },
    { who: "octocat", scopes: ["repo", "admin:org", "admin:repo_hook"], status: 403, why: "admin without admin:org_hook" },
    { who: "hubot", scopes: ["admin:org_hook"], status: 404, why: "member, not admin" },
    { who: "defunkt", scopes: ["admin:org_hook"], status: 404, why: "outsider" },
  ] as { who: string; scopes: Scope[]; status: number; why: string }[])("$who with $scopes ($why): $status", async ({ who, scopes, status }) => {
    const caller = await token(who, scopes);
    expect((await call("GET", ORG_HOOKS, caller)).status).toBe(status);
    expect((await call("POST", ORG_HOOKS, caller, webhook(fresh()))).status).toBe(status === 200 ? 201 : status);
  });

  it("answers 404 for users and unknown organizations", async () => {
    for (const org of ["octocat", "no-such-org"]) {
      expect((await call("GET", `/orgs/${org}/hooks`, api.token)).status).toBe(404);
      expect((await call("POST", `/orgs/${org}/hooks`, api.token, webhook(fresh()))).status).toBe(404);
    }
  });

  it("lets an OAuth token act only on the hooks its application created", async () => {
    const appA = await token("octocat", ["admin:org_hook"], demoAppId);
    const appB = await token("octocat", ["admin:org_hook"], otherAppId);
    const personal = await token("octocat", ["admin:org_hook"]);
    const byA = (await call("POST", ORG_HOOKS, appA, webhook(refused()))).body.id as number;
    const byPersonal = (await call("POST", ORG_HOOKS, personal, webhook(refused()))).body.id as number;
    const listed = async (caller: string) => ((await call("GET", ORG_HOOKS, caller)).body as { id: number }[]).map((h) => h.id);
    // Each hook's creation ping, logged once its first attempt has been made.
    const ping = (id: number, owner: string) =>
      eventually(async () => ((await call("GET", `${ORG_HOOKS}/${id}/deliveries`, owner)).body as { id: number }[])[0]?.id, ceiling(15_000), `the ping of hook ${id}`);
    const pings = new Map([[byA, await ping(byA, appA)], [byPersonal, await ping(byPersonal, personal)]]);

    expect(await listed(appA)).toContain(byA);
    expect(await listed(appA)).not.toContain(byPersonal);
    expect(await listed(appB)).not.toContain(byA);
    expect(await listed(personal)).toContain(byPersonal);
    expect(await listed(personal)).not.toContain(byA);

    for (const [caller, id, owner] of [[appB, byA, appA], [personal, byA, appA], [appA, byPersonal, personal]] as const) {
      const hook = `${ORG_HOOKS}/${id}`;
      for (const [method, path, body] of [
        ["GET", hook],
        ["PATCH", hook, { active: false }],
        ["DELETE", hook],
        ["POST", `${hook}/pings`],
        ["GET", `${hook}/deliveries`],
        ["GET", `${hook}/deliveries/${pings.get(id)}`],
        ["POST", `${hook}/deliveries/${pings.get(id)}/attempts`],
      ] as const) {
        const reply = await call(method, path, caller, body);
        expect(reply.status, `${method} ${path}`).toBe(404);
        expect(reply.body, `${method} ${path}`).toEqual({ message: "Not Found", documentation_url: expect.any(String) });
      }
      // What the others were refused, the hook's own application (or personal token) may do.
      for (const [method, path] of [["POST", `${hook}/pings`], ["GET", `${hook}/deliveries`], ["GET", `${hook}/deliveries/${pings.get(id)}`], ["POST", `${hook}/deliveries/${pings.get(id)}/attempts`]] as const) {
        expect((await call(method, path, owner)).status, `${method} ${path} by the hook's owner`).toBeLessThan(300);
      }
    }
    expect((await call("GET", `${ORG_HOOKS}/${byA}`, appA)).body.active).toBe(true);
    expect((await call("PATCH", `${ORG_HOOKS}/${byA}`, appA, { active: false })).status).toBe(200);
    expect((await call("DELETE", `${ORG_HOOKS}/${byA}`, appA)).status).toBe(204);
    expect((await call("DELETE", `${ORG_HOOKS}/${byPersonal}`, personal)).status).toBe(204);
  });

  it("does not restrict repository hooks by application", async () => {
    const appA = await token("octocat", ["admin:repo_hook"], demoAppId);
    const id = (await call("POST", REPO_HOOKS, appA, webhook(fresh()))).body.id;
    expect((await call("GET", `${REPO_HOOKS}/${id}`, api.token)).status).toBe(200);
  });

  it("records the creating application and user", async () => {
    const appA = await token("octocat", ["admin:org_hook"], demoAppId);
    const id = (await call("POST", ORG_HOOKS, appA, webhook(fresh()))).body.id;
    const row = (await t.server.db.query<{ app_id: number; creator_id: number }>("select app_id::int as app_id, creator_id::int as creator_id from hooks where id = $1", [id]))[0]!;
    const octocatId = (await t.server.db.query<{ id: number }>("select id::int as id from accounts where login = 'octocat'"))[0]!.id;
    expect(row).toEqual({ app_id: demoAppId, creator_id: octocatId });
  });
});
