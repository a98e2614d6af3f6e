/**
 * OAUTH-REVIEW-*: the authorization review link (seed: Endpoints › D › Authorization review link —
 * "A user can review and revoke an application's authorization at
 * {auth_url}/settings/connections/applications/:client_id (for end users, in a browser)"). The
 * seed's part: a signed-in user with a grant gets the page there, and revoking on it makes the
 * application's token stop working. The contract's (D-OAUTH-REVIEW-PAGE): 200 `text/html` with a
 * grant, the login page when signed out, 404 when the signed-in user has no grant — also when
 * another user has one. The pages are read as a browser without script would (the login form
 * of the form driver's field names, cookies kept); a profile with the browser driver skips them.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import type { ProfileUser } from "../../core/profile.ts";
import type { HttpResponse } from "../../core/http.ts";
import { check } from "../../core/failure.ts";
import { homeOrigins, keepSecretsHome, profileSecrets } from "../../core/credentials-home.ts";
import { extractForms, formData } from "../../authorize/html-forms.ts";
import { app, OAUTH_NEEDS, revokeToken, tokenFor } from "./support.ts";
import { tokenStatus } from "./nonweb-support.ts";

export const REVIEW_SEED = "Endpoints › D › Authorization review link";
const HTML_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8";
const MAX_STEPS = 8;

/** A browser without script on the web host: cookies kept, forms posted with this site's Origin. */
export class Session {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly ctx: CaseContext) {}

  private remember(res: HttpResponse): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0/i.test(line) || value === "") this.cookies.delete(pair.slice(0, eq).trim());
      else this.cookies.set(pair.slice(0, eq).trim(), value);
    }
  }

  private cookie(): Record<string, string> {
    return this.cookies.size === 0 ? {} : { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") };
  }

  async get(url: URL, review: boolean): Promise<HttpResponse> {
    const res = await this.ctx.http.request({
      ...(review ? { operationId: "getApplicationReview" as const, params: { client_id: app(this.ctx).clientId } } : { path: url.href }),
      method: "GET",
      headers: { accept: HTML_ACCEPT, ...this.cookie() },
    });
    this.remember(res);
    return res;
  }

  async post(page: URL, action: string, data: Record<string, string>, secret?: string): Promise<HttpResponse> {
    const target = new URL(action || page.href, page);
    // A login form posting elsewhere fails the case (D-URL-ORIGINS), unsent.
    const home = homeOrigins([this.ctx.baseUrl, this.ctx.authUrl], this.ctx.profile.authorize?.allowOrigins);
    keepSecretsHome({ url: target.href, body: new URLSearchParams(data).toString() }, home, profileSecrets(this.ctx.profile));
    try {
      const res = await this.ctx.http.request({ method: "POST", path: target.href, headers: { accept: HTML_ACCEPT, origin: page.origin, referer: page.href, ...this.cookie() }, form: data });
      this.remember(res);
      return res;
    } finally {
      // The password must not reach a report through the recorded request.
      const last = this.ctx.http.last;
      if (secret && last?.requestBody) last.requestBody = last.requestBody.split(new URLSearchParams({ s: secret }).toString().slice(2)).join("***");
    }
  }
}

export function reviewUrl(ctx: CaseContext): URL {
  return new URL(`${ctx.authUrl}/settings/connections/applications/${encodeURIComponent(app(ctx).clientId)}`);
}

export function loginFields(ctx: CaseContext): { login: string; password: string } {
  if (ctx.profile.authorize?.driver !== "form") ctx.skip("the review page cases read the pages as the form driver does (authorize.driver: form)");
  return { login: ctx.profile.authorize.login?.username ?? "login", password: ctx.profile.authorize.login?.password ?? "password" };
}

export function isHtml(res: HttpResponse): boolean {
  return /^text\/html\b/i.test(res.headers.get("content-type") ?? "");
}

export function hasLoginForm(ctx: CaseContext, res: HttpResponse): boolean {
  const f = loginFields(ctx);
  return extractForms(res.text).some((form) => form.fields.some((x) => x.name === f.login) && form.fields.some((x) => x.name === f.password));
}

/** Opens the review page as `user`: signed out first (returned too), then through its login form, following redirects back. */
export async function reviewAs(ctx: CaseContext, user: ProfileUser): Promise<{ session: Session; signedOut: HttpResponse; page: HttpResponse; url: URL }> {
  const fields = loginFields(ctx);
  if (!user.password) ctx.skip(`profile has no password for ${user.login} (the review page's login form needs one)`);
  const session = new Session(ctx);
  let url = reviewUrl(ctx);
  const signedOut = await session.get(url, true);
  let res = signedOut;
  let signedIn = false;
  for (let step = 0; step < MAX_STEPS; step++) {
    if (res.status >= 300 && res.status < 400 && res.headers.get("location")) {
      url = new URL(res.headers.get("location")!, url);
      check.ok(url.origin === new URL(ctx.authUrl).origin, "the review page's sign-in stays on the web host", { expected: ctx.authUrl, actual: url.href, pointer: "/headers/location" });
      res = await session.get(url, url.pathname === reviewUrl(ctx).pathname);
      continue;
    }
    if (!signedIn && res.status === 200 && hasLoginForm(ctx, res)) {
      const form = extractForms(res.text).find((x) => x.fields.some((f) => f.name === fields.login))!;
      res = await session.post(url, form.action, formData(form, { [fields.login]: user.login, [fields.password]: user.password! }), user.password);
      signedIn = true;
      continue;
    }
    return { session, signedOut, page: res, url };
  }
  return check.fail(`signing in on the review page did not settle within ${MAX_STEPS} steps`, { actual: url.href });
}

export const REVIEW_CASES: Case[] = [
  {
    id: "OAUTH-REVIEW-001",
    title: "The review page shows the login page when signed out, and 404 to a signed-in user without a grant while another user has one",
    area: "oauth",
    seed: REVIEW_SEED,
    rules: ["D-OAUTH-REVIEW-PAGE"],
    needs: [...OAUTH_NEEDS, "second-user"],
    async run(ctx) {
      loginFields(ctx);
      const { token } = await tokenFor(ctx, "gist");
      try {
        const { signedOut, page } = await reviewAs(ctx, ctx.profile.users[1]!);
        check.status(signedOut.status, 200, "signed out: the review page answers the login page (200)");
        check.ok(isHtml(signedOut) && hasLoginForm(ctx, signedOut), "signed out: the answer is the login page", { expected: "text/html with the login form", actual: `${signedOut.headers.get("content-type")} ${signedOut.text.slice(0, 160)}`, pointer: "/body" });
        check.status(page.status, 404, `signed in as ${ctx.profile.users[1]!.login}, who has no grant for the application (${ctx.profile.users[0]!.login} has one): 404`);
        check.ok(isHtml(page), "the 404 is an HTML page", { expected: "text/html", actual: page.headers.get("content-type"), pointer: "/headers/content-type" });
      } finally {
        await revokeToken(ctx, token);
      }
    },
  },
  {
    id: "OAUTH-REVIEW-002",
    title: "A signed-in user with a grant reviews it at /settings/connections/applications/:client_id and revokes it there: the token is refused",
    area: "oauth",
    seed: REVIEW_SEED,
    rules: ["S-OAUTH-REVIEW-LINK", "D-OAUTH-REVIEW-PAGE", "D-REF-OAUTH-REVIEW-REVOKE"],
    needs: [...OAUTH_NEEDS, "user"],
    async run(ctx) {
      loginFields(ctx);
      const { token } = await tokenFor(ctx, "gist");
      let revoked = false;
      try {
        const { session, page, url } = await reviewAs(ctx, ctx.profile.users[0]!);
        check.status(page.status, 200, "the user with a grant gets the review page");
        check.ok(isHtml(page), "the review page is HTML for a browser", { expected: "text/html", actual: page.headers.get("content-type"), pointer: "/headers/content-type" });
        const revoke = extractForms(page.text).flatMap((form) => form.buttons.filter((b) => /revoke/i.test(`${b.text} ${b.value}`)).map((button) => ({ form, button })))[0];
        check.ok(revoke, "the review page has a Revoke button (seed: the user reviews and revokes there)", { expected: "a form with a Revoke button", actual: page.text.replace(/\s+/g, " ").slice(0, 300), pointer: "/body" });
        const done = await session.post(url, revoke.form.action, formData(revoke.form, {}, revoke.button));
        check.ok(done.status < 400, "pressing Revoke is accepted", { expected: "a page or a redirect", actual: `${done.status} ${done.text.replace(/\s+/g, " ").slice(0, 160)}`, pointer: "/status" });
        revoked = true;
        const after = await tokenStatus(ctx, token);
        check.ok(after >= 400 && after < 500, "after revoking on the review page, the application's token is refused", { expected: "a 4xx refusal", actual: after, pointer: "/status" });
        const again = await session.get(reviewUrl(ctx), true);
        ctx.rule("D-OAUTH-REVIEW-PAGE").status(again.status, 404, "once revoked, the review page answers 404 (no grant any more)");
      } finally {
        if (!revoked) await revokeToken(ctx, token);
      }
    },
  },
];
