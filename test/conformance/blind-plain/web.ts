// web.ts — the web host: cookie sessions, sign-in (with a TOTP step for two-factor users), sign-out, the
// pipeline that writes HTML/redirect replies, and routing to the OAuth pages of oauth.ts.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { World } from "./ctx.ts";
import { writeReply, type Headers, type Reply } from "./http.ts";
import { registerOAuth } from "./oauth.ts";
import { loginPage, messagePage, otpPage } from "./pages.ts";
import { Router } from "./router.ts";
import type { Session } from "./store.ts";
import { verifyTotp } from "./totp.ts";
import { randomHex, readBody, safeEqual } from "./util.ts";

export interface WebCtx {
  w: World; req: IncomingMessage; url: URL; setCookies: string[];
  body(): Promise<Buffer>;
  form(): Promise<URLSearchParams>;
}

export const html = (status: number, text: string): Reply => ({ status, text, headers: { "Content-Type": "text/html; charset=utf-8" } });
export const redirect = (location: string): Reply => ({ status: 302, text: "", headers: { Location: location } });

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

export function session(c: WebCtx): Session | undefined {
  const sid = cookie(c.req, "sid");
  return sid ? c.w.store.sessions.get(sid) : undefined;
}

/** A fresh session (rotating away from the current one), carrying over the pending return address. */
export function newSession(c: WebCtx): Session {
  const old = session(c);
  if (old) c.w.store.sessions.delete(old.id);
  const s: Session = { id: randomHex(24), csrf: randomHex(20), returnTo: old?.returnTo };
  c.w.store.sessions.set(s.id, s);
  c.setCookies.push(`sid=${s.id}; Path=/; HttpOnly; SameSite=Lax`);
  return s;
}

export const ensureSession = (c: WebCtx): Session => session(c) ?? newSession(c);

/** Only same-host paths may be used as a return address. */
export function safeReturn(v: string | null | undefined): string | undefined {
  return v && v.startsWith("/") && !v.startsWith("//") && !v.startsWith("/\\") ? v : undefined;
}

/** Sends an unauthenticated browser to the sign-in page, remembering where it was going. */
export function toLogin(c: WebCtx): Reply {
  const back = c.url.pathname + c.url.search;
  ensureSession(c).returnTo = back;
  return redirect(`/login?return_to=${encodeURIComponent(back)}`);
}

function registerSession(r: Router<WebCtx>): void {
  r.on("GET", "/login", (c) => {
    const s = ensureSession(c);
    const back = safeReturn(c.url.searchParams.get("return_to"));
    if (back) s.returnTo = back;
    return html(200, loginPage(s.returnTo ?? "/settings/applications", s.csrf));
  });

  r.on("POST", "/session", async (c) => {
    const f = await c.form();
    const user = c.w.store.user(f.get("login"));
    const ok = safeEqual(user?.password ?? "\u0000no-user", f.get("password") ?? "") && user !== undefined;
    const back = safeReturn(f.get("return_to")) ?? session(c)?.returnTo ?? "/settings/applications";
    if (!ok || !user) {
      const s = ensureSession(c);
      return html(200, loginPage(back, s.csrf, "Incorrect username or password."));
    }
    const s = newSession(c);
    s.returnTo = back;
    if (user.totpSecret) {
      s.pending2fa = user.login;
      return redirect("/sessions/two-factor");
    }
    s.login = user.login;
    return redirect(back);
  });

  r.on("GET", "/sessions/two-factor", (c) => {
    const s = session(c);
    if (!s?.pending2fa) return redirect("/login");
    return html(200, otpPage(s.csrf));
  });

  r.on("POST", "/sessions/two-factor", async (c) => {
    const s = session(c);
    const f = await c.form();
    const user = c.w.store.user(s?.pending2fa);
    if (!s || !user?.totpSecret) return redirect("/login");
    if (!verifyTotp(user.totpSecret, f.get("otp") ?? "")) return html(200, otpPage(s.csrf, "Two-factor authentication failed."));
    const fresh = newSession(c);
    fresh.login = user.login;
    return redirect(fresh.returnTo ?? "/settings/applications");
  });

  const logout = (c: WebCtx): Reply => {
    const s = session(c);
    if (s) c.w.store.sessions.delete(s.id);
    c.setCookies.push("sid=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    return redirect("/login");
  };
  r.on("GET", "/logout", logout);
  r.on("POST", "/logout", logout);
}

export function webRouter(): Router<WebCtx> {
  const r = new Router<WebCtx>();
  registerSession(r);
  registerOAuth(r);
  return r;
}

async function serve(w: World, router: Router<WebCtx>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = req.url ?? "/";
  let url: URL;
  try {
    if (!raw.startsWith("/") || raw.startsWith("//")) throw new Error("bad target");
    url = new URL(w.web + raw);
  } catch {
    req.resume();
    writeReply(res, html(400, messagePage("Bad request", "Malformed request target.")));
    return;
  }
  let body: Promise<Buffer> | undefined;
  const c: WebCtx = {
    w, req, url, setCookies: [],
    body: () => (body ??= readBody(req, 100_000).then((b) => b ?? Buffer.alloc(0))),
    form: async () => new URLSearchParams((await c.body()).toString("utf8")),
  };
  const head = req.method === "HEAD";
  const m = router.match(head ? "GET" : req.method ?? "GET", url.pathname);
  const reply = m ? await m.handler(c, m.params) : html(404, messagePage("Not Found", "There is no page here."));
  req.resume();
  const headers: Headers = { "Cache-Control": "no-store", "X-Frame-Options": "deny", ...reply.headers };
  if (c.setCookies.length > 0) headers["Set-Cookie"] = c.setCookies;
  writeReply(res, { ...reply, headers }, head);
}

export function webListener(w: World, router: Router<WebCtx>): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    serve(w, router, req, res).catch(() => {
      if (!res.headersSent) writeReply(res, html(500, messagePage("Error", "Something went wrong.")));
      else res.destroy();
    });
  };
}
