// web-pages.ts — plain HTML pages of the web host (no JavaScript): sign-in, two-factor, consent, review/revoke.
import { escapeHtml as h } from "./util.ts";

export function layout(title: string, body: string): string {
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${h(title)}</title></head><body><h1>${h(title)}</h1>\n${body}\n</body></html>\n`;
}

const hidden = (name: string, value: string): string => `<input type="hidden" name="${h(name)}" value="${h(value)}">`;

export function loginPage(csrf: string, returnTo: string, error?: string): string {
  return layout("Sign in", `${error ? `<p class="error" role="alert">${h(error)}</p>` : ""}
<form method="post" action="/session">
${hidden("authenticity_token", csrf)}${hidden("return_to", returnTo)}
<label for="login">Username or email</label> <input type="text" id="login" name="login" autocomplete="username" required>
<label for="password">Password</label> <input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit" name="commit" value="Sign in">Sign in</button>
</form>`);
}

export function twoFactorPage(csrf: string, returnTo: string, error?: string): string {
  return layout("Two-factor authentication", `${error ? `<p class="error" role="alert">${h(error)}</p>` : ""}
<form method="post" action="/sessions/two-factor">
${hidden("authenticity_token", csrf)}${hidden("return_to", returnTo)}
<label for="otp">Authentication code</label> <input type="text" id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" required>
<button type="submit" name="commit" value="Verify">Verify</button>
</form>`);
}

export function consentPage(csrf: string, appName: string, login: string, fields: Record<string, string>, scopes: string[]): string {
  const list = scopes.length ? scopes.map((s) => `<li>${h(s)}</li>`).join("") : "<li>(no scope) read-only access to public information</li>";
  return layout(`Authorize ${appName}`, `<p>${h(appName)} would like permission to access the account of <strong>${h(login)}</strong>.</p>
<p>Requested scopes:</p><ul id="scopes">${list}</ul>
<form method="post" action="/login/oauth/authorize">
${hidden("authenticity_token", csrf)}${Object.entries(fields).map(([k, v]) => hidden(k, v)).join("")}
<button type="submit" name="authorize" value="1">Authorize application</button>
<button type="submit" name="authorize" value="0">Deny</button>
</form>`);
}

export function reviewPage(csrf: string, action: string, appName: string, scopes: string[]): string {
  return layout(appName, `<p>${h(appName)} has access to your account with these scopes:</p>
<ul id="scopes">${scopes.map((s) => `<li>${h(s)}</li>`).join("") || "<li>(no scope)</li>"}</ul>
<form method="post" action="${h(action)}">
${hidden("authenticity_token", csrf)}
<button type="submit" name="revoke" value="1">Revoke access</button>
</form>`);
}

export function applicationsPage(apps: { name: string; href: string; scopes: string[] }[]): string {
  const items = apps.map((a) => `<li><a href="${h(a.href)}">${h(a.name)}</a> (${h(a.scopes.join(", ") || "no scope")})</li>`).join("");
  return layout("Authorized applications", apps.length ? `<ul>${items}</ul>` : "<p>No authorized applications.</p>");
}

export const messagePage = (title: string, text: string): string => layout(title, `<p>${h(text)}</p>`);
