// authorizations.ts — the non-web flow: /authorizations create/list/get/edit/delete with Basic auth (TOTP via
// X-Service-OTP for two-factor users), the application endpoints (token check, reset, revoke; grant revocation)
// authenticated as client_id:client_secret, and the user's grants under /applications/grants.
import { paged, type ApiCtx } from "./ctx.ts";
import { fail, invalid, notFound, type Reply } from "./http.ts";
import { userObj, type Obj } from "./present.ts";
import type { Router } from "./router.ts";
import { KNOWN_SCOPES, normalize } from "./scopes.ts";
import type { App, Authorization, Grant, User } from "./store.ts";
import { iso, positiveInt, safeEqual, sha256Hex, type JsonObject } from "./util.ts";

function appObj(c: ApiCtx, a: { clientId: string | null; note: string | null }): Obj {
  const app = a.clientId ? c.w.store.apps.get(a.clientId) : undefined;
  return app
    ? { name: app.name, url: app.url, client_id: app.clientId }
    : { name: a.note ?? "Personal access token", url: `${c.w.web}/settings/tokens`, client_id: "00000000000000000000" };
}

export function authObj(c: ApiCtx, a: Authorization, showToken: boolean): Obj {
  return {
    id: a.id, url: `${c.w.api}/authorizations/${a.id}`, app: appObj(c, a), token: showToken ? a.token : "",
    hashed_token: sha256Hex(a.token), token_last_eight: a.token.slice(-8), note: a.note, note_url: a.noteUrl,
    fingerprint: a.fingerprint, scopes: [...a.scopes], created_at: iso(a.createdAt), updated_at: iso(a.updatedAt),
  };
}

const grantObj = (c: ApiCtx, g: Grant): Obj => ({
  id: g.id, url: `${c.w.api}/applications/grants/${g.id}`, app: appObj(c, { clientId: g.clientId, note: null }),
  created_at: iso(g.createdAt), updated_at: iso(g.updatedAt), scopes: [...g.scopes],
});

function basicUser(c: ApiCtx): User {
  c.accepted = [];
  if (c.id.kind === "user" && c.id.via === "basic") return c.id.user;
  if (c.id.kind === "anon") throw fail(401, "requires_authentication", "Requires authentication");
  throw fail(401, "basic_auth_required", "This API can only be accessed with username and password Basic Auth");
}

function callerApp(c: ApiCtx, clientId: string | undefined): App {
  c.accepted = [];
  if (c.id.kind !== "app") throw fail(401, "requires_authentication", "Requires client_id and client_secret Basic Auth");
  if (c.id.app.clientId !== clientId) throw notFound();
  return c.id.app;
}

function optText(b: JsonObject, k: string): string | null | undefined {
  const v = b[k];
  if (v === undefined || v === null || typeof v === "string") return v;
  throw invalid("invalid", `${k} must be a string`);
}

function scopeList(b: JsonObject, k: string): string[] | undefined {
  const v = b[k];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every((s): s is string => typeof s === "string")) throw invalid("invalid", `${k} must be an array of strings`);
  const unknown = v.find((s) => !KNOWN_SCOPES.has(s));
  if (unknown !== undefined) throw invalid("invalid", `${k} contains an unknown scope: ${unknown}`);
  return v;
}

function clientApp(c: ApiCtx, b: JsonObject, clientId: unknown): App {
  const app = typeof clientId === "string" ? c.w.store.apps.get(clientId) : undefined;
  const secret = typeof b.client_secret === "string" ? b.client_secret : "";
  if (!app) throw invalid("invalid", "client_id does not name a registered application");
  if (!safeEqual(app.clientSecret, secret)) throw invalid("invalid", "client_secret is incorrect");
  return app;
}

function mine(c: ApiCtx, u: User, id: string | undefined): Authorization {
  const a = c.w.store.auths.get(positiveInt(id) ?? 0);
  if (!a || a.login !== u.login) throw notFound();
  return a;
}

async function createOrGet(c: ApiCtx, clientId: string | undefined, fingerprintParam: string | undefined): Promise<Reply> {
  const u = basicUser(c);
  const b = await c.json();
  const scopes = scopeList(b, "scopes") ?? [];
  const note = optText(b, "note");
  const noteUrl = optText(b, "note_url");
  const fingerprint = fingerprintParam ?? optText(b, "fingerprint") ?? null;
  const wantsApp = clientId !== undefined || b.client_id !== undefined;
  const app = wantsApp ? clientApp(c, b, clientId ?? b.client_id) : undefined;
  const store = c.w.store;
  if (app) {
    const existing = store.authsFor(u.login, app.clientId).find((a) => a.fingerprint === fingerprint);
    if (existing && clientId !== undefined) return { status: 200, body: authObj(c, existing, false) };
    if (existing) throw invalid("already_exists", "An authorization for this application and fingerprint already exists");
  } else {
    if (!note) throw invalid("missing_field", "note is required");
    const dup = [...store.auths.values()].some((a) => a.login === u.login && a.clientId === null && a.note === note);
    if (dup) throw invalid("already_exists", "note must be unique among your personal access tokens");
  }
  const a = store.createAuth({ login: u.login, scopes, clientId: app?.clientId ?? null, note, noteUrl, fingerprint });
  return { status: 201, body: authObj(c, a, true), headers: { Location: `${c.w.api}/authorizations/${a.id}` } };
}

export function registerAuthorizations(r: Router<ApiCtx>): void {
  r.on("GET", "/authorizations", (c) => {
    const u = basicUser(c);
    return paged(c, [...c.w.store.auths.values()].filter((a) => a.login === u.login), (a) => authObj(c, a, false));
  });
  r.on("POST", "/authorizations", (c) => createOrGet(c, undefined, undefined));
  r.on("PUT", "/authorizations/clients/:client_id", (c, p) => createOrGet(c, p.client_id ?? "", undefined));
  r.on("PUT", "/authorizations/clients/:client_id/:fingerprint", (c, p) => createOrGet(c, p.client_id ?? "", p.fingerprint));
  r.on("GET", "/authorizations/:id", (c, p) => ({ status: 200, body: authObj(c, mine(c, basicUser(c), p.id), false) }));

  r.on("PATCH", "/authorizations/:id", async (c, p) => {
    const a = mine(c, basicUser(c), p.id);
    const b = await c.json();
    const scopes = scopeList(b, "scopes");
    const add = scopeList(b, "add_scopes");
    const remove = scopeList(b, "remove_scopes");
    if ([scopes, add, remove].filter((x) => x !== undefined).length > 1) throw invalid("invalid", "Only one of scopes, add_scopes or remove_scopes may be given");
    const note = optText(b, "note");
    const noteUrl = optText(b, "note_url");
    const fingerprint = optText(b, "fingerprint");
    if (a.clientId === null && note === null) throw invalid("missing_field", "note is required");
    if (scopes) a.scopes = normalize(scopes);
    if (add) a.scopes = normalize([...a.scopes, ...add]);
    if (remove) a.scopes = normalize(a.scopes).filter((s) => !remove.includes(s));
    if (note !== undefined) a.note = note;
    if (noteUrl !== undefined) a.noteUrl = noteUrl;
    if (fingerprint !== undefined) a.fingerprint = fingerprint;
    a.updatedAt = new Date();
    if (a.clientId) c.w.store.refreshGrant(a.login, a.clientId);
    return { status: 200, body: authObj(c, a, false) };
  });

  r.on("DELETE", "/authorizations/:id", (c, p) => {
    c.w.store.deleteAuth(mine(c, basicUser(c), p.id));
    return { status: 204 };
  });

  // The user's grants (one per authorized application).
  const grant = (c: ApiCtx, id: string | undefined): Grant => {
    const u = basicUser(c);
    const g = c.w.store.grants.get(positiveInt(id) ?? 0);
    if (!g || g.login !== u.login) throw notFound();
    return g;
  };
  r.on("GET", "/applications/grants", (c) => {
    const u = basicUser(c);
    return paged(c, [...c.w.store.grants.values()].filter((g) => g.login === u.login), (g) => grantObj(c, g));
  });
  r.on("GET", "/applications/grants/:id", (c, p) => ({ status: 200, body: grantObj(c, grant(c, p.id)) }));
  r.on("DELETE", "/applications/grants/:id", (c, p) => {
    c.w.store.deleteGrant(grant(c, p.id));
    return { status: 204 };
  });

  // The application's own endpoints (Basic client_id:client_secret).
  const appToken = (c: ApiCtx, p: Record<string, string>): Authorization => {
    const app = callerApp(c, p.client_id);
    const a = c.w.store.authByToken(p.access_token ?? "");
    if (!a || a.clientId !== app.clientId) throw notFound();
    return a;
  };
  r.on("GET", "/applications/:client_id/tokens/:access_token", (c, p) => {
    const a = appToken(c, p);
    return { status: 200, body: { ...authObj(c, a, true), user: userObj(c.w, a.login) } };
  });
  r.on("POST", "/applications/:client_id/tokens/:access_token", (c, p) => {
    const a = appToken(c, p);
    c.w.store.resetToken(a);
    return { status: 200, body: { ...authObj(c, a, true), user: userObj(c.w, a.login) } };
  });
  r.on("DELETE", "/applications/:client_id/tokens/:access_token", (c, p) => {
    c.w.store.deleteAuth(appToken(c, p));
    return { status: 204 };
  });
  r.on("DELETE", "/applications/:client_id/tokens", (c, p) => {
    const app = callerApp(c, p.client_id);
    for (const a of [...c.w.store.auths.values()]) if (a.clientId === app.clientId) c.w.store.deleteAuth(a);
    return { status: 204 };
  });
  r.on("DELETE", "/applications/:client_id/grants/:access_token", (c, p) => {
    const a = appToken(c, p);
    const g = c.w.store.grantFor(a.login, a.clientId ?? "");
    if (g) c.w.store.deleteGrant(g);
    else c.w.store.deleteAuth(a);
    return { status: 204 };
  });
}
