/**
 * `ctx.authorize(query)`: through the target's authorize page as users[0], by the driver the
 * profile chooses — `form` (plain HTTP, form.ts) or `browser` (Chromium, browser.ts) — ending at
 * the redirect to the callback, which is returned unfollowed. One authorizer per run, so the
 * browser driver starts Chromium once however many cases use it.
 */
import type { Profile } from "../core/profile.ts";
import type { HttpClient } from "../core/http.ts";
import { SkipCase } from "../core/failure.ts";
import { authorizeWithForm } from "./form.ts";
import { browserAuthorizer, type BrowserAuthorizer } from "./browser.ts";

export interface AuthorizeCall {
  /** Press the consent page's approve (default) or deny button. */
  decision?: "approve" | "deny";
  /** The case's client, so the form driver's requests show in its exchanges (and curl line). */
  http?: HttpClient;
}

export interface Authorizer {
  authorize(query: Record<string, string>, options?: AuthorizeCall): Promise<URL>;
  close(): Promise<void>;
}

/** `baseUrl`: the API host, the other origin the browser driver may send the profile's secrets to. */
export function createAuthorizer(profile: Profile, authUrl: string, baseUrl: string = authUrl): Authorizer {
  let browser: BrowserAuthorizer | undefined;
  return {
    authorize(query, options = {}) {
      switch (profile.authorize?.driver) {
        case "form":
          return authorizeWithForm(profile, authUrl, query, { http: options.http, decision: options.decision });
        case "browser":
          browser ??= browserAuthorizer(profile, authUrl, baseUrl);
          return browser.authorize(query, options.decision);
        default:
          return Promise.reject(new SkipCase("profile has no authorize driver"));
      }
    },
    async close() {
      await browser?.close();
    },
  };
}
