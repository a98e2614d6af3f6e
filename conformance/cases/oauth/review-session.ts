/**
 * The review page (seed: Endpoints › D › Authorization review link) as a browser without script
 * reads it: cookies kept, forms posted with this site's Origin, signed in through the login form
 * of the form driver's field names. The review cases use it to check the page, and the OAuth
 * cases' tidying uses it to revoke their grant where the target has no application API
 * (D-NONWEB-APP-TOKENS) — the seed's own way for a user to revoke.
 */
import type { CaseContext } from "../../core/types.ts";
import type { ProfileUser } from "../../core/profile.ts";
import type { HttpResponse } from "../../core/http.ts";
import { check } from "../../core/failure.ts";
import { homeOrigins, keepSecretsHome, profileSecrets } from "../../core/credentials-home.ts";
import { extractForms, formData } from "../../authorize/html-forms.ts";
import { app } from "./support.ts";

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

/** The Revoke button of a review page, when it has one. */
export function revokeButton(page: HttpResponse): { form: ReturnType<typeof extractForms>[number]; button: ReturnType<typeof extractForms>[number]["buttons"][number] } | undefined {
  return extractForms(page.text).flatMap((form) => form.buttons.filter((b) => /revoke/i.test(`${b.text} ${b.value}`)).map((button) => ({ form, button })))[0];
}
