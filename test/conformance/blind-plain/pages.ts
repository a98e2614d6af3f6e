// pages.ts — the web host's HTML: sign-in, two-factor, consent, application review and message pages.
// Plain forms that work without JavaScript; every value is HTML-escaped.
import { SCOPE_INFO } from "./scopes.ts";
import type { App, Grant } from "./store.ts";
import { escapeHtml as h } from "./util.ts";

export const FIELDS = { username: "login", password: "password", otp: "otp", decision: "authorize", approve: "1", deny: "0" } as const;

export function page(title: string, body: string): string {
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${h(title)}</title></head>\n<body>\n<main>\n<h1>${h(title)}</h1>\n${body}\n</main>\n</body></html>\n`;
}

const hidden = (name: string, value: string): string => `<input type="hidden" name="${h(name)}" value="${h(value)}">`;
const flash = (error?: string): string => (error ? `<p class="flash-error" role="alert">${h(error)}</p>\n` : "");

export function loginPage(returnTo: string, csrf: string, error?: string): string {
  return page("Sign in", `${flash(error)}<form method="post" action="/session">
${hidden("authenticity_token", csrf)}
${hidden("return_to", returnTo)}
<label for="login_field">Username</label>
<input type="text" id="login_field" name="${FIELDS.username}" autocomplete="username" autofocus>
<label for="password">Password</label>
<input type="password" id="password" name="${FIELDS.password}" autocomplete="current-password">
<button type="submit" name="commit" value="Sign in">Sign in</button>
</form>`);
}

export function otpPage(csrf: string, error?: string): string {
  return page("Two-factor authentication", `${flash(error)}<form method="post" action="/sessions/two-factor">
${hidden("authenticity_token", csrf)}
<label for="otp">Authentication code</label>
<input type="text" id="otp" name="${FIELDS.otp}" inputmode="numeric" autocomplete="one-time-code" autofocus>
<button type="submit" name="commit" value="Verify">Verify</button>
</form>`);
}

export function consentPage(app: App, login: string, scopes: string[], fields: Record<string, string>, csrf: string): string {
  const items = scopes.length === 0
    ? `<li>No scopes: read-only access to public information</li>`
    : scopes.map((s) => `<li class="scope" data-scope="${h(s)}"><strong>${h(s)}</strong>: ${h(SCOPE_INFO[s] ?? "")}</li>`).join("\n");
  const inputs = Object.entries(fields).map(([k, v]) => hidden(k, v)).join("\n");
  return page(`Authorize ${app.name}`, `<p><strong>${h(app.name)}</strong> would like permission to access your account <strong>${h(login)}</strong>.</p>
<p>Requested scopes:</p>
<ul id="scopes">
${items}
</ul>
<form method="post" action="/login/oauth/authorize">
${hidden("authenticity_token", csrf)}
${inputs}
<button type="submit" name="${FIELDS.decision}" value="${FIELDS.approve}">Authorize application</button>
<button type="submit" name="${FIELDS.decision}" value="${FIELDS.deny}">Deny</button>
</form>`);
}

export function appPage(app: App, grant: Grant, csrf: string): string {
  const scopes = grant.scopes.length ? grant.scopes.map((s) => `<li>${h(s)}</li>`).join("\n") : "<li>No scopes (public read-only)</li>";
  return page(app.name, `<p>${h(app.name)} has access to your account with these scopes:</p>
<ul id="scopes">
${scopes}
</ul>
<form method="post" action="/settings/connections/applications/${encodeURIComponent(app.clientId)}">
${hidden("authenticity_token", csrf)}
<button type="submit" name="revoke" value="1">Revoke access</button>
</form>`);
}

export function appsPage(list: { app: App; grant: Grant }[]): string {
  const items = list.map(({ app, grant }) =>
    `<li><a href="/settings/connections/applications/${encodeURIComponent(app.clientId)}">${h(app.name)}</a> (${h(grant.scopes.join(", ") || "no scopes")})</li>`);
  return page("Authorized applications", items.length ? `<ul>\n${items.join("\n")}\n</ul>` : "<p>No authorized applications.</p>");
}

export const messagePage = (title: string, message: string): string => page(title, `<p>${h(message)}</p>`);
