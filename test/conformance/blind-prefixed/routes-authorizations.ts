// routes-authorizations.ts — the non-web flow (/authorizations, Basic auth + two-factor OTP), the user's grants
// (/applications/grants) and the application's token check/reset/revoke and grant revocation endpoints.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { params, requireBasic } from "./access.ts";
import { principalOf } from "./api-auth.ts";
import { type App, type Authz, type Ctx, type User, appByClientId } from "./model.ts";
import { paginate } from "./paging.ts";
import { authzView, grantView } from "./present.ts";
import { ApiError, badBody, invalid, notFound } from "./problem.ts";
import { ALL_SCOPES, normalize } from "./scopes.ts";
import { issueToken, revokeGrant, upsertGrant } from "./tokens.ts";
import { asObject, intParam, randomHex, safeEqual, sha256 } from "./util.ts";

function optString(b: Record<string, unknown>, field: string): string | null | undefined {
  const v = b[field];
  if (v === undefined) return undefined;
  if (v === null || typeof v === "string") return v;
  throw invalid("OauthAccess", field, "invalid");
}
function scopeList(b: Record<string, unknown>, field: string): string[] | undefined {
  const v = b[field];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw invalid("OauthAccess", field, "invalid", `Validation Failed: ${field} must be an array of strings`);
  const bad = (v as string[]).find((s) => !ALL_SCOPES.includes(s));
  if (bad !== undefined) throw invalid("OauthAccess", field, "invalid", `Validation Failed: unknown scope ${bad}`);
  return v as string[];
}
const body = (req: FastifyRequest): Record<string, unknown> => { const b = asObject(req.body); if (!b) throw badBody(); return b; };

function ownAuthz(ctx: Ctx, req: FastifyRequest, user: User): Authz {
  const id = intParam(params(req).id, 0);
  const a = ctx.store.authz.find((x) => x.id === id && x.userId === user.id);
  if (!a) throw notFound();
  return a;
}

export function authorizationRoutes(ctx: Ctx, app: FastifyInstance): void {
  const s = ctx.store;
  const loc = (a: Authz): string => `${ctx.api}/authorizations/${a.id}`;

  app.get("/authorizations", async (req, reply) => {
    const { user } = requireBasic(req);
    return paginate(ctx, req, reply, s.authz.filter((a) => a.userId === user.id), false).map((a) => authzView(ctx, a));
  });

  app.get("/authorizations/:id", async (req) => authzView(ctx, ownAuthz(ctx, req, requireBasic(req).user)));

  app.post("/authorizations", async (req, reply) => {
    const { user } = requireBasic(req);
    const b = body(req);
    const scopes = normalize(scopeList(b, "scopes") ?? []);
    const note = optString(b, "note") ?? null, noteUrl = optString(b, "note_url") ?? null, fingerprint = optString(b, "fingerprint") ?? null;
    const clientId = optString(b, "client_id"), clientSecret = optString(b, "client_secret");
    let appRec: App | undefined;
    if (clientId) {
      appRec = appByClientId(s, clientId);
      if (!appRec || !safeEqual(clientSecret ?? "", appRec.clientSecret)) throw invalid("OauthAccess", "client_secret", "invalid", "Validation Failed: client_id and/or client_secret are incorrect");
    } else {
      if (!note) throw invalid("OauthAccess", "note", "missing_field");
      if (s.authz.some((a) => a.userId === user.id && a.appId === null && a.note === note)) throw invalid("OauthAccess", "description", "already_exists", "Validation Failed: a personal token with this note already exists");
    }
    const { authz, token } = issueToken(ctx, user.id, appRec?.id ?? null, scopes, note);
    Object.assign(authz, { noteUrl, fingerprint });
    if (appRec) upsertGrant(ctx, user.id, appRec.id, scopes);
    reply.code(201).header("Location", loc(authz));
    return authzView(ctx, authz, token);
  });

  // Get-or-create an authorization for one application (optionally keyed by fingerprint).
  for (const path of ["/authorizations/clients/:client_id", "/authorizations/clients/:client_id/:fingerprint"]) {
    app.put(path, async (req, reply) => {
      const { user } = requireBasic(req);
      const b = body(req);
      const appRec = appByClientId(s, params(req).client_id ?? "");
      if (!appRec) throw notFound();
      const secret = optString(b, "client_secret");
      if (!secret) throw invalid("OauthAccess", "client_secret", "missing_field");
      if (!safeEqual(secret, appRec.clientSecret)) throw invalid("OauthAccess", "client_secret", "invalid");
      const fingerprint = params(req).fingerprint ?? optString(b, "fingerprint") ?? null;
      const existing = s.authz.find((a) => a.userId === user.id && a.appId === appRec.id && a.fingerprint === fingerprint);
      if (existing) return authzView(ctx, existing);
      const scopes = normalize(scopeList(b, "scopes") ?? []);
      const { authz, token } = issueToken(ctx, user.id, appRec.id, scopes, optString(b, "note") ?? null);
      Object.assign(authz, { noteUrl: optString(b, "note_url") ?? null, fingerprint });
      upsertGrant(ctx, user.id, appRec.id, scopes);
      reply.code(201).header("Location", loc(authz));
      return authzView(ctx, authz, token);
    });
  }

  app.patch("/authorizations/:id", async (req) => {
    const { user } = requireBasic(req);
    const a = ownAuthz(ctx, req, user);
    const b = body(req);
    const set = scopeList(b, "scopes"), add = scopeList(b, "add_scopes"), remove = scopeList(b, "remove_scopes");
    if ([set, add, remove].filter((x) => x !== undefined).length > 1) throw invalid("OauthAccess", "scopes", "invalid", "Validation Failed: only one of scopes, add_scopes and remove_scopes may be given");
    const note = optString(b, "note"), noteUrl = optString(b, "note_url"), fingerprint = optString(b, "fingerprint");
    let scopes = a.scopes;
    if (set) scopes = normalize(set);
    if (add) scopes = normalize([...scopes, ...add]);
    if (remove) scopes = scopes.filter((x) => !remove.includes(x));
    if (note !== undefined) a.note = note;
    if (noteUrl !== undefined) a.noteUrl = noteUrl;
    if (fingerprint !== undefined) a.fingerprint = fingerprint;
    a.scopes = scopes; a.updatedAt = Date.now();
    return authzView(ctx, a);
  });

  app.delete("/authorizations/:id", async (req, reply) => {
    const a = ownAuthz(ctx, req, requireBasic(req).user);
    s.authz = s.authz.filter((x) => x !== a);
    return reply.code(204).send();
  });

  // The user's grants (applications authorized), Basic auth only.
  const ownGrant = (req: FastifyRequest) => {
    const { user } = requireBasic(req);
    const g = s.grants.find((x) => x.id === intParam(params(req).id, 0) && x.userId === user.id);
    if (!g) throw notFound();
    return g;
  };
  app.get("/applications/grants", async (req, reply) => {
    const { user } = requireBasic(req);
    return paginate(ctx, req, reply, s.grants.filter((g) => g.userId === user.id), false).map((g) => grantView(ctx, g));
  });
  app.get("/applications/grants/:id", async (req) => grantView(ctx, ownGrant(req)));
  app.delete("/applications/grants/:id", async (req, reply) => {
    const g = ownGrant(req);
    revokeGrant(ctx, g.userId, g.appId);
    return reply.code(204).send();
  });

  // Application endpoints: Basic auth with client_id:client_secret.
  const appAuth = (req: FastifyRequest): App => {
    const p = principalOf(req);
    if (p.kind === "anon") throw new ApiError(401, "Requires authentication");
    if (p.kind !== "app" || p.app.clientId !== params(req).client_id) throw notFound();
    return p.app;
  };
  const appToken = (req: FastifyRequest): { appRec: App; authz: Authz; token: string } => {
    const appRec = appAuth(req);
    const token = params(req).access_token ?? "";
    const hash = sha256(token);
    const authz = s.authz.find((a) => a.appId === appRec.id && a.tokenHash === hash);
    if (!authz) throw notFound();
    return { appRec, authz, token };
  };
  const tokenPath = "/applications/:client_id/tokens/:access_token";
  app.get(tokenPath, async (req) => { const { authz, token } = appToken(req); return authzView(ctx, authz, token, true); });
  app.post(tokenPath, async (req) => {
    const { authz } = appToken(req);
    const token = randomHex(20);
    Object.assign(authz, { tokenHash: sha256(token), lastEight: token.slice(-8), updatedAt: Date.now() });
    return authzView(ctx, authz, token, true);
  });
  app.delete(tokenPath, async (req, reply) => {
    const { authz } = appToken(req);
    s.authz = s.authz.filter((x) => x !== authz);
    return reply.code(204).send();
  });
  app.delete("/applications/:client_id/tokens", async (req, reply) => {
    const appRec = appAuth(req);
    s.authz = s.authz.filter((a) => a.appId !== appRec.id);
    return reply.code(204).send();
  });
  app.delete("/applications/:client_id/grants/:access_token", async (req, reply) => {
    const { appRec, authz } = appToken(req);
    revokeGrant(ctx, authz.userId, appRec.id);
    return reply.code(204).send();
  });
}
