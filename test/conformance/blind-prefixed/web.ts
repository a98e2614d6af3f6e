// web.ts — the web host ({auth_url}): sessions with CSRF tokens, sign-in (incl. two-factor), the authorize page with
// consent, the code-for-token exchange, and the review/revoke page of an authorized application.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { type App, type Ctx, type Session, type User, appByClientId, userById, userByLogin } from "./model.ts";
import { errorPairs, redirectAllowed, tokenReply } from "./oauth-rules.ts";
import { covers, parseScopeParam } from "./scopes.ts";
import { issueToken, revokeGrant, upsertGrant } from "./tokens.ts";
import { applicationsPage, consentPage, layout, loginPage, messagePage, reviewPage, twoFactorPage } from "./web-pages.ts";
import { queryOf, randomHex, safeEqual, verifyTotp } from "./util.ts";

const COOKIE = "_service_session";
const CODE_TTL_MS = 10 * 60_000;
type Fields = Record<string, string>;

const firstValues = (q: URLSearchParams): Fields => {
  const out: Fields = {};
  for (const [k, v] of q) if (!(k in out)) out[k] = v;
  return out;
};
const bodyFields = (body: unknown): Fields => {
  if (typeof body !== "object" || body === null) return {};
  const out: Fields = {};
  for (const [k, v] of Object.entries(body)) if (typeof v === "string") out[k] = v;
  return out;
};
const safeReturn = (v: string | undefined): string => (v && /^\/(?![/\\])/.test(v) ? v : "/");

export function buildWeb(ctx: Ctx): FastifyInstance {
  const s = ctx.store;
  const web = Fastify({
    logger: false,
    frameworkErrors: (_err, _req, reply) => { void (reply as unknown as FastifyReply).code(400).type("text/html; charset=utf-8").send(messagePage("Bad Request", "The request could not be understood.")); },
  });
  web.removeAllContentTypeParsers();
  web.addContentTypeParser("*", { parseAs: "string" }, (req, body, done) => {
    const text = String(body);
    if (/json/i.test(String(req.headers["content-type"] ?? ""))) {
      try { done(null, text.trim() ? JSON.parse(text) : {}); } catch { done(null, {}); }
      return;
    }
    done(null, firstValues(new URLSearchParams(text)));
  });

  const html = (reply: FastifyReply, status: number, page: string): FastifyReply =>
    reply.code(status).header("Cache-Control", "no-store").type("text/html; charset=utf-8").send(page);

  function session(req: FastifyRequest, reply: FastifyReply): Session {
    const m = new RegExp(`(?:^|;\\s*)${COOKIE}=([0-9a-f]+)`).exec(req.headers.cookie ?? "");
    const found = m?.[1] ? s.sessions.get(m[1]) : undefined;
    return found ?? newSession(reply, null);
  }
  function newSession(reply: FastifyReply, userId: number | null, old?: Session): Session {
    if (old) s.sessions.delete(old.id);
    const sess: Session = { id: randomHex(24), csrf: randomHex(20), userId, pending2fa: null };
    s.sessions.set(sess.id, sess);
    reply.header("Set-Cookie", `${COOKIE}=${sess.id}; Path=/; HttpOnly; SameSite=Lax`);
    return sess;
  }
  const signedIn = (sess: Session): User | undefined => (sess.userId == null ? undefined : userById(s, sess.userId));
  const csrfOk = (sess: Session, f: Fields): boolean => safeEqual(f.authenticity_token ?? "", sess.csrf);
  const csrfFail = (reply: FastifyReply) => html(reply, 422, messagePage("Unprocessable Entity", "Invalid authenticity token. Reload the page and try again."));
  const toLogin = (reply: FastifyReply, returnTo: string) => reply.redirect(`/login?return_to=${encodeURIComponent(returnTo)}`, 302);

  function redirectWith(reply: FastifyReply, base: string, pairs: [string, string][], state: string | undefined): FastifyReply {
    const u = new URL(base);
    for (const [k, v] of pairs) u.searchParams.set(k, v);
    if (state !== undefined) u.searchParams.set("state", state);
    return reply.redirect(u.toString(), 302);
  }

  /** Validates client_id and redirect_uri; on failure the answer is already sent and null is returned. */
  function validate(reply: FastifyReply, f: Fields): { app: App; redirect: string; scopes: string[]; state?: string } | null {
    const app = appByClientId(s, f.client_id ?? "");
    if (!app) { html(reply, 404, messagePage("Not Found", "No application with this client_id is registered.")); return null; }
    if (app.suspended) { redirectWith(reply, app.callbackUrl, errorPairs(ctx.web, "application_suspended"), f.state); return null; }
    const given = f.redirect_uri ? f.redirect_uri : null;
    if (given !== null && !redirectAllowed(app.callbackUrl, given)) {
      redirectWith(reply, app.callbackUrl, errorPairs(ctx.web, "redirect_uri_mismatch"), f.state);
      return null;
    }
    return { app, redirect: given ?? app.callbackUrl, scopes: parseScopeParam(f.scope), ...(f.state !== undefined ? { state: f.state } : {}) };
  }
  function complete(reply: FastifyReply, app: App, user: User, scopes: string[], redirect: string, state: string | undefined): FastifyReply {
    const code = randomHex(10);
    s.codes.set(code, { code, appId: app.id, userId: user.id, scopes: [...scopes], expiresAt: Date.now() + CODE_TTL_MS, used: false });
    return redirectWith(reply, redirect, [["code", code]], state);
  }

  web.get("/", async (req, reply) => {
    const user = signedIn(session(req, reply));
    return html(reply, 200, messagePage("Service", user ? `Signed in as ${user.login}.` : "Not signed in."));
  });

  web.get("/login", async (req, reply) => {
    const sess = session(req, reply);
    return html(reply, 200, loginPage(sess.csrf, safeReturn(queryOf(req.url).get("return_to") ?? undefined)));
  });

  web.post("/session", async (req, reply) => {
    const sess = session(req, reply);
    const f = bodyFields(req.body);
    if (!csrfOk(sess, f)) return csrfFail(reply);
    const returnTo = safeReturn(f.return_to);
    const user = userByLogin(s, f.login ?? "");
    const ok = safeEqual(f.password ?? "", user?.password ?? randomHex(16)) && user !== undefined;
    if (!ok || !user) return html(reply, 401, loginPage(sess.csrf, returnTo, "Incorrect username or password."));
    if (user.totpSecret) {
      const next = newSession(reply, null, sess);
      next.pending2fa = user.id;
      return reply.redirect(`/sessions/two-factor?return_to=${encodeURIComponent(returnTo)}`, 302);
    }
    newSession(reply, user.id, sess);
    return reply.redirect(returnTo, 302);
  });

  web.get("/sessions/two-factor", async (req, reply) => {
    const sess = session(req, reply);
    const returnTo = safeReturn(queryOf(req.url).get("return_to") ?? undefined);
    if (sess.pending2fa == null) return toLogin(reply, returnTo);
    return html(reply, 200, twoFactorPage(sess.csrf, returnTo));
  });

  web.post("/sessions/two-factor", async (req, reply) => {
    const sess = session(req, reply);
    const f = bodyFields(req.body);
    if (!csrfOk(sess, f)) return csrfFail(reply);
    const returnTo = safeReturn(f.return_to);
    const user = sess.pending2fa == null ? undefined : userById(s, sess.pending2fa);
    if (!user?.totpSecret) return toLogin(reply, returnTo);
    if (!verifyTotp(user.totpSecret, (f.otp ?? "").trim())) return html(reply, 401, twoFactorPage(sess.csrf, returnTo, "Two-factor authentication failed."));
    newSession(reply, user.id, sess);
    return reply.redirect(returnTo, 302);
  });

  web.post("/logout", async (req, reply) => {
    const sess = session(req, reply);
    if (!csrfOk(sess, bodyFields(req.body))) return csrfFail(reply);
    newSession(reply, null, sess);
    return reply.redirect("/", 302);
  });

  web.get("/login/oauth/authorize", async (req, reply) => {
    const f = firstValues(queryOf(req.url));
    const v = validate(reply, f);
    if (!v) return reply;
    const sess = session(req, reply);
    const user = signedIn(sess);
    if (!user) return toLogin(reply, req.url);
    // Already authorized (a valid token exists): skip the page, reuse the scopes granted last time.
    const tokens = s.authz.filter((a) => a.userId === user.id && a.appId === v.app.id);
    const grant = s.grants.find((g) => g.userId === user.id && g.appId === v.app.id);
    const last = tokens[tokens.length - 1];
    const previous = grant?.scopes ?? last?.scopes;
    if (last && previous && covers(previous, v.scopes)) return complete(reply, v.app, user, previous, v.redirect, v.state);
    const fields: Fields = { client_id: v.app.clientId, redirect_uri: f.redirect_uri ?? "", scope: v.scopes.join(","), ...(v.state !== undefined ? { state: v.state } : {}) };
    return html(reply, 200, consentPage(sess.csrf, v.app.name, user.login, fields, v.scopes));
  });

  web.post("/login/oauth/authorize", async (req, reply) => {
    const sess = session(req, reply);
    const f = bodyFields(req.body);
    if (!csrfOk(sess, f)) return csrfFail(reply);
    const user = signedIn(sess);
    const keep = ["client_id", "redirect_uri", "scope", "state"].filter((k) => f[k] !== undefined).map((k): [string, string] => [k, f[k] ?? ""]);
    if (!user) return toLogin(reply, `/login/oauth/authorize?${new URLSearchParams(keep).toString()}`);
    const v = validate(reply, f);
    if (!v) return reply;
    if (f.authorize === "1") return complete(reply, v.app, user, v.scopes, v.redirect, v.state);
    // Authorization errors go to the registered callback URL (as the seed states for every error).
    return redirectWith(reply, v.app.callbackUrl, errorPairs(ctx.web, "access_denied"), v.state);
  });

  web.post("/login/oauth/access_token", async (req, reply) => {
    const f = { ...firstValues(queryOf(req.url)), ...bodyFields(req.body) };
    const basic = /^basic\s+(\S+)/i.exec(req.headers.authorization ?? "");
    if (basic?.[1] && f.client_id === undefined) {
      const [id = "", ...rest] = Buffer.from(basic[1], "base64").toString("utf8").split(":");
      f.client_id = id; f.client_secret = rest.join(":");
    }
    const accept = String(req.headers.accept ?? "");
    const app = appByClientId(s, f.client_id ?? "");
    const secretOk = safeEqual(f.client_secret ?? "", app?.clientSecret ?? randomHex(20));
    if (!app || !secretOk) return tokenReply(reply, accept, 401, errorPairs(ctx.web, "incorrect_client_credentials"));
    if (f.redirect_uri && !redirectAllowed(app.callbackUrl, f.redirect_uri)) return tokenReply(reply, accept, 400, errorPairs(ctx.web, "redirect_uri_mismatch"));
    const code = f.code ? s.codes.get(f.code) : undefined;
    if (!code || code.used || code.expiresAt < Date.now() || code.appId !== app.id) return tokenReply(reply, accept, 400, errorPairs(ctx.web, "bad_verification_code"));
    code.used = true;
    s.codes.delete(code.code);
    const { token } = issueToken(ctx, code.userId, app.id, code.scopes, null);
    upsertGrant(ctx, code.userId, app.id, code.scopes);
    return tokenReply(reply, accept, 200, [["access_token", token], ["scope", code.scopes.join(",")], ["token_type", "bearer"]]);
  });

  // Review and revoke an application's access.
  const reviewPath = (app: App): string => `/settings/connections/applications/${encodeURIComponent(app.clientId)}`;
  web.get("/settings/applications", async (req, reply) => {
    const user = signedIn(session(req, reply));
    if (!user) return toLogin(reply, req.url);
    const apps = s.grants.filter((g) => g.userId === user.id).flatMap((g) => {
      const app = s.apps.find((a) => a.id === g.appId);
      return app ? [{ name: app.name, href: reviewPath(app), scopes: g.scopes }] : [];
    });
    return html(reply, 200, applicationsPage(apps));
  });
  web.get("/settings/connections/applications/:client_id", async (req, reply) => {
    const sess = session(req, reply);
    const user = signedIn(sess);
    if (!user) return toLogin(reply, req.url);
    const app = appByClientId(s, (req.params as Fields).client_id ?? "");
    const grant = app && s.grants.find((g) => g.userId === user.id && g.appId === app.id);
    if (!app || !grant) return html(reply, 404, messagePage("Not Found", "This application is not authorized for your account."));
    return html(reply, 200, reviewPage(sess.csrf, reviewPath(app), app.name, grant.scopes));
  });
  web.post("/settings/connections/applications/:client_id", async (req, reply) => {
    const sess = session(req, reply);
    if (!csrfOk(sess, bodyFields(req.body))) return csrfFail(reply);
    const user = signedIn(sess);
    if (!user) return toLogin(reply, req.url);
    const app = appByClientId(s, (req.params as Fields).client_id ?? "");
    if (!app || !s.grants.some((g) => g.userId === user.id && g.appId === app.id)) return html(reply, 404, messagePage("Not Found", "This application is not authorized for your account."));
    revokeGrant(ctx, user.id, app.id);
    return reply.redirect("/settings/applications", 303);
  });

  web.setNotFoundHandler((_req, reply) => html(reply, 404, messagePage("Not Found", "This page does not exist.")));
  web.setErrorHandler((err: unknown, _req, reply) => {
    const code = (err as { statusCode?: unknown }).statusCode;
    const status = typeof code === "number" && code >= 400 && code < 500 ? code : 500;
    if (status === 500) console.error(err);
    return html(reply, status, layout("Error", "<p>Something went wrong.</p>"));
  });
  return web;
}
