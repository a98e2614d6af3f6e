/**
 * The authorizations API over real HTTP (Basic username:password): create, list, get, update and
 * delete; get-or-create for an application (201 then 200 with token ""), with and without a
 * fingerprint; the created token working on the API host; scope arithmetic of add_scopes /
 * remove_scopes; the 422 rules; tokens stored only as digests.
 */
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../reference/auth/secrets.ts";
import { useServer, DEMO } from "./harness.ts";
import { call, demoApp, errorShape, hubot, octocat } from "./authorizations-client.ts";

const t = useServer();

const create = (body: unknown, auth = octocat) => call(t.api, "POST", "/authorizations", { auth, body });

describe("POST /authorizations", () => {
  it("creates a personal token, shows it once, and stores only its digest", async () => {
    const res = await create({ scopes: ["repo", "user", "user:email"], note: "deploy script", note_url: "https://tools.example.com/deploy" });
    expect(res.status).toBe(201);
    const a = res.body;
    expect(a.token).toMatch(/^[0-9a-f]{40}$/);
    expect(a.token_last_eight).toBe(a.token.slice(-8));
    expect(a.hashed_token).toBe(sha256Hex(a.token));
    expect(a.scopes).toEqual(["repo", "user"]); // user:email is implied by user
    expect(a).toMatchObject({ note: "deploy script", note_url: "https://tools.example.com/deploy", fingerprint: null });
    expect(a.url).toBe(`${t.api}/authorizations/${a.id}`);
    expect(res.headers.get("location")).toBe(a.url);
    expect(a.app).toEqual({ client_id: "00000000000000000000", name: "deploy script (API)", url: expect.stringMatching(/^http/) });
    expect(a.user).toBeUndefined();

    const stored = await t.server.db.query<Record<string, unknown>>("select * from authorizations where id = $1", [a.id]);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(a.token);
    expect(stored[0]!.token_hash).toBe(sha256Hex(a.token));
  });

  it("creates a token without any body field: no scopes, no note", async () => {
    const res = await create({});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ scopes: [], note: null, note_url: null, fingerprint: null });
    expect(res.body.app.name).toBe("Personal access token (API)");
  });

  it("creates a token for an application given client_id and client_secret", async () => {
    const res = await create({ client_id: DEMO.app.clientId, client_secret: DEMO.app.clientSecret, scopes: ["gist"], note: "for demo app" });
    expect(res.status).toBe(201);
    expect(res.body.app).toEqual({ client_id: DEMO.app.clientId, name: "Demo App", url: "http://127.0.0.1:8080" });
  });

  it("lets the new token authenticate API requests, with its scopes in X-OAuth-Scopes", async () => {
    const { body } = await create({ scopes: ["repo", "admin:repo_hook"] });
    const res = await fetch(`${t.api}/events`, { headers: { Authorization: `token ${body.token}` } });
    expect(res.status).not.toBe(401);
    expect(res.headers.get("x-oauth-scopes")).toBe("admin:repo_hook, repo");
    expect(res.headers.get("x-ratelimit-limit")).toBe("5000");
    await res.arrayBuffer();
  });

  it("answers 422 already_exists for a note the user already has (and allows it with another fingerprint)", async () => {
    expect((await create({ note: "twice" })).status).toBe(201);
    const again = await create({ note: "twice" });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ message: "Validation Failed", errors: [{ resource: "OauthAccess", field: "description", code: "already_exists" }] });
    expect((await create({ note: "twice", fingerprint: "laptop" })).status).toBe(201);
    // Another user may use the same note.
    expect((await create({ note: "twice" }, hubot)).status).toBe(201);
  });

  it.each([
    ["an unknown scope", { scopes: ["repo", "root"] }, "scopes"],
    ["a scope listed twice", { scopes: ["repo", "repo"] }, "scopes"],
    ["scopes as a string", { scopes: "repo,user" }, "scopes"],
    ["client_id without client_secret", { client_id: DEMO.app.clientId }, ""],
    ["client_secret without client_id", { client_secret: "x" }, ""],
    ["a note_url that is not a URL", { note_url: "not a url" }, "note_url"],
    ["a note that is not a string", { note: 42 }, "note"],
    ["a note over 1024 characters", { note: "n".repeat(1025) }, "note"],
    ["an empty fingerprint", { fingerprint: "" }, "fingerprint"],
  ])("answers 422 to %s", async (_name, body, field) => {
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ message: "Validation Failed", documentation_url: expect.any(String) });
    expect(res.body.errors.length).toBeGreaterThan(0);
    if (field) expect(res.body.errors.map((e: { field: string }) => e.field).join(" ")).toContain(field);
  });

  it("answers 422 naming the field for a wrong client_secret or an unknown client_id", async () => {
    const wrongSecret = await create({ client_id: DEMO.app.clientId, client_secret: "wrong" });
    expect(wrongSecret.status).toBe(422);
    expect(wrongSecret.body.errors).toEqual([expect.objectContaining({ field: "client_secret", code: "invalid" })]);
    const unknown = await create({ client_id: "no-such-client", client_secret: "whatever" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ field: "client_id", code: "invalid" })]);
  });

  it("refuses tokens for a suspended application with 422", async () => {
    const res = await create({ client_id: DEMO.suspendedApp.clientId, client_secret: DEMO.suspendedApp.clientSecret });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: "client_id", code: "custom", message: expect.any(String) })]);
  });

  it.each([
    ["malformed JSON", { rawBody: "{not json", headers: { "Content-Type": "application/json" } }, 400, "Problems parsing JSON"],
    ["a form body", { rawBody: "note=x", headers: { "Content-Type": "application/x-www-form-urlencoded" } }, 415, /Unsupported Media Type/],
    ["a __proto__ key", { rawBody: '{"__proto__": {"x": 1}}', headers: { "Content-Type": "application/json" } }, 400, "Problems parsing JSON"],
    ["a body over 1 MiB", { body: { note: "n".repeat(1024 * 1024 + 10) } }, 413, "Payload Too Large"],
    ["a JSON array", { body: [] }, 422, "Validation Failed"],
    ["no body at all", {}, 422, "Validation Failed"],
  ])("answers %s in the error shape, never a 5xx", async (_name, options, status, message) => {
    const res = await call(t.api, "POST", "/authorizations", { auth: octocat, ...options });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject(errorShape(message));
  });
});

describe("list, get, update, delete", () => {
  it("lists the user's authorizations with token hidden, and only theirs", async () => {
    const mine = await create({ note: "listed" }, hubot);
    const res = await call(t.api, "GET", "/authorizations", { auth: hubot });
    expect(res.status).toBe(200);
    const ids = res.body.map((a: { id: number }) => a.id);
    expect(ids).toContain(mine.body.id);
    expect(res.body.every((a: { token: string }) => a.token === "")).toBe(true);
    const octocats = await call(t.api, "GET", "/authorizations", { auth: octocat });
    expect(octocats.body.map((a: { id: number }) => a.id)).not.toContain(mine.body.id);
    expect(res.headers.get("link")).toBeNull();
  });

  it("pages by 30 with a Link header", async () => {
    for (let i = 0; i < 31; i++) expect((await create({ note: `page-${i}` }, hubot)).status).toBe(201);
    const first = await call(t.api, "GET", "/authorizations", { auth: hubot });
    expect(first.body).toHaveLength(30);
    expect(first.headers.get("link")).toBe(`<${t.api}/authorizations?page=2>; rel="next", <${t.api}/authorizations?page=2>; rel="last"`);
    const second = await call(t.api, "GET", "/authorizations?page=2", { auth: hubot });
    expect(second.body.length).toBeGreaterThan(0);
    expect(second.headers.get("link")).toContain('rel="first"');
    const beyond = await call(t.api, "GET", "/authorizations?page=9999999999999", { auth: hubot });
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual([]);
  });

  it.each([
    ["page=0", "?page=0"],
    ["page=abc", "?page=abc"],
    ["page twice", "?page=1&page=2"],
  ])("answers 422 to %s", async (_name, query) => {
    const res = await call(t.api, "GET", `/authorizations${query}`, { auth: octocat });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ resource: "OauthAccess", field: "page", code: "invalid" });
  });

  it("gets one authorization with token hidden; another user's is a 404", async () => {
    const { body: created } = await create({ scopes: ["gist"], note: "single" });
    const res = await call(t.api, "GET", `/authorizations/${created.id}`, { auth: octocat });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, token: "" });
    const other = await call(t.api, "GET", `/authorizations/${created.id}`, { auth: hubot });
    expect(other.status).toBe(404);
    expect(other.body).toEqual(errorShape("Not Found"));
  });

  it.each(["999999", "99999999999999999999", "abc", "0", "-1", "1.5"])("answers 404 for the id %s", async (id) => {
    for (const method of ["GET", "DELETE"]) {
      const res = await call(t.api, method, `/authorizations/${id}`, { auth: octocat });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(errorShape("Not Found"));
    }
    const patch = await call(t.api, "PATCH", `/authorizations/${id}`, { auth: octocat, body: { scopes: [] } });
    expect(patch.status).toBe(404);
  });

  it("replaces, adds and removes scopes, normalizing each time", async () => {
    const { body: a } = await create({ scopes: ["gist"] });
    const patch = (body: unknown) => call(t.api, "PATCH", `/authorizations/${a.id}`, { auth: octocat, body });

    const added = await patch({ add_scopes: ["user:email", "repo"], note: "patched" });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ scopes: ["gist", "repo", "user:email"], note: "patched", token: "" });
    expect((await patch({ add_scopes: ["user"] })).body.scopes).toEqual(["gist", "repo", "user"]);
    // Removing what repo grants leaves what repo grants besides it.
    expect((await patch({ remove_scopes: ["public_repo", "gist"] })).body.scopes).toEqual(["notifications", "repo:status", "repo_deployment", "user"]);
    expect((await patch({ remove_scopes: ["user"] })).body.scopes).toEqual(["notifications", "repo:status", "repo_deployment"]);
    expect((await patch({ scopes: ["admin:org", "read:org"] })).body.scopes).toEqual(["admin:org"]);
    expect((await patch({ scopes: [] })).body.scopes).toEqual([]);
    expect((await patch({ scopes: [], note_url: "https://example.com/why", fingerprint: "desk" })).body).toMatchObject({ note_url: "https://example.com/why", fingerprint: "desk", note: "patched" });
  });

  it("the token keeps working after a PATCH, with the new scopes", async () => {
    const { body: a } = await create({ scopes: ["gist"] });
    await call(t.api, "PATCH", `/authorizations/${a.id}`, { auth: octocat, body: { add_scopes: ["repo"] } });
    const res = await fetch(`${t.api}/events`, { headers: { Authorization: `token ${a.token}` } });
    expect(res.headers.get("x-oauth-scopes")).toBe("gist, repo");
    await res.arrayBuffer();
  });

  it.each([
    ["both scopes and add_scopes", { scopes: ["repo"], add_scopes: ["gist"] }],
    ["add_scopes and remove_scopes", { add_scopes: ["repo"], remove_scopes: ["gist"] }],
    ["only a note", { note: "just a note" }],
    ["an empty object", {}],
    ["an unknown scope", { add_scopes: ["superuser"] }],
  ])("answers 422 to a PATCH with %s", async (_name, body) => {
    const { body: a } = await create({});
    const res = await call(t.api, "PATCH", `/authorizations/${a.id}`, { auth: octocat, body });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe("Validation Failed");
  });

  it("answers 422 already_exists when a PATCH gives the note of another authorization", async () => {
    await create({ note: "taken by patch" });
    const { body: a } = await create({ note: "free" });
    const res = await call(t.api, "PATCH", `/authorizations/${a.id}`, { auth: octocat, body: { scopes: [], note: "taken by patch" } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ code: "already_exists" });
    // Keeping its own note is not a duplicate.
    expect((await call(t.api, "PATCH", `/authorizations/${a.id}`, { auth: octocat, body: { scopes: [], note: "free" } })).status).toBe(200);
  });

  it("deletes an authorization: 204, the token stops working, a second delete is a 404", async () => {
    const { body: a } = await create({ scopes: ["repo"] });
    expect((await call(t.api, "DELETE", `/authorizations/${a.id}`, { auth: hubot })).status).toBe(404);
    const res = await call(t.api, "DELETE", `/authorizations/${a.id}`, { auth: octocat });
    expect(res.status).toBe(204);
    const after = await fetch(`${t.api}/events`, { headers: { Authorization: `token ${a.token}` } });
    expect(after.status).toBe(401);
    await after.arrayBuffer();
    expect((await call(t.api, "DELETE", `/authorizations/${a.id}`, { auth: octocat })).status).toBe(404);
  });

  it.each([
    ["PUT", "/authorizations"],
    ["DELETE", "/authorizations"],
    ["POST", "/authorizations/1"],
    ["GET", "/authorizations/clients/demo-client-id-0001"],
  ])("answers 404 in the error shape to %s %s (no such operation)", async (method, path) => {
    const res = await call(t.api, method, path, { auth: octocat });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorShape("Not Found"));
  });
});

describe("get-or-create for an application", () => {
  const put = (path: string, body: unknown, auth = octocat) => call(t.api, "PUT", path, { auth, body });

  it("creates (201, with token) and then returns the existing one (200, token \"\")", async () => {
    const path = `/authorizations/clients/${DEMO.app.clientId}`;
    const first = await put(path, { client_secret: DEMO.app.clientSecret, scopes: ["repo"], note: "desktop client" }, hubot);
    expect(first.status).toBe(201);
    expect(first.body.token).toMatch(/^[0-9a-f]{40}$/);
    expect(first.headers.get("location")).toBe(first.body.url);
    expect(first.body.app.client_id).toBe(DEMO.app.clientId);
    const second = await put(path, { client_secret: DEMO.app.clientSecret, scopes: ["gist"] }, hubot);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ ...first.body, token: "" });
    expect(second.headers.get("location")).toBeNull();
  });

  it("keys by fingerprint: one authorization per fingerprint", async () => {
    const base = `/authorizations/clients/${DEMO.app.clientId}`;
    const laptop = await put(`${base}/laptop-7f3a`, { client_secret: DEMO.app.clientSecret, scopes: ["repo"] }, octocat);
    expect(laptop.status).toBe(201);
    expect(laptop.body.fingerprint).toBe("laptop-7f3a");
    const desktop = await put(`${base}/desktop-01`, { client_secret: DEMO.app.clientSecret }, octocat);
    expect(desktop.status).toBe(201);
    expect(desktop.body.id).not.toBe(laptop.body.id);
    const again = await put(`${base}/laptop-7f3a`, { client_secret: DEMO.app.clientSecret }, octocat);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: laptop.body.id, token: "", scopes: ["repo"] });
    // The path's fingerprint wins over the body's.
    const viaBody = await put(`${base}/laptop-7f3a`, { client_secret: DEMO.app.clientSecret, fingerprint: "other" }, octocat);
    expect(viaBody.body.id).toBe(laptop.body.id);
  });

  it("answers 404 for an unknown client ID and 422 for a wrong secret", async () => {
    const unknown = await put("/authorizations/clients/no-such-app", { client_secret: "x" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(errorShape("Not Found"));
    const wrong = await put(`/authorizations/clients/${DEMO.app.clientId}`, { client_secret: "wrong" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([expect.objectContaining({ resource: "OauthAccess", field: "client_secret", code: "invalid" })]);
  });

  it.each([
    ["no client_secret", {}],
    ["an unknown scope", { client_secret: DEMO.app.clientSecret, scopes: ["everything"] }],
    ["a fingerprint over 255 characters", { client_secret: DEMO.app.clientSecret, fingerprint: "f".repeat(256) }],
  ])("answers 422 to %s", async (_name, body) => {
    const res = await put(`/authorizations/clients/${DEMO.app.clientId}`, body, hubot);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe("Validation Failed");
  });

  it("answers 422 for a suspended application", async () => {
    const res = await put(`/authorizations/clients/${DEMO.suspendedApp.clientId}`, { client_secret: DEMO.suspendedApp.clientSecret });
    expect(res.status).toBe(422);
  });

  it("needs Basic credentials of a user, not of the application", async () => {
    const res = await put(`/authorizations/clients/${DEMO.app.clientId}`, { client_secret: DEMO.app.clientSecret }, demoApp);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorShape("Bad credentials"));
  });
});
