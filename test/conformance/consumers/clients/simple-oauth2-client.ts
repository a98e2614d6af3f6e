/**
 * An OAuth web-flow client on simple-oauth2 5.1.0, its documented usage and defaults: client
 * credentials with HTTP Basic (RFC 6749 §2.3.1), `Accept: application/json`, a random state in the
 * session. simple-oauth2 reads any 2xx as a token, so a 200 error body (the service's token errors,
 * D-OAUTH-TOKEN-ERROR-STATUS) has to be checked by the app: `checkErrorBody: false` leaves that out,
 * the broken variant the suite must catch.
 */
import { randomBytes } from "node:crypto";
import { AuthorizationCode } from "simple-oauth2";
import { page, redirect, startWebApp, type TestClient } from "./web-app.ts";

export interface SimpleOAuth2ClientOptions {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** Treat a token answer with `error` (or without access_token) as a failure (default true). */
  checkErrorBody?: boolean;
}

export function startSimpleOAuth2Client(options: SimpleOAuth2ClientOptions): Promise<TestClient> {
  const oauth = new AuthorizationCode({
    client: { id: options.clientId, secret: options.clientSecret },
    auth: { tokenHost: options.authUrl, tokenPath: "/login/oauth/access_token", authorizePath: "/login/oauth/authorize" },
  });
  return startWebApp((callbackUrl) => ({
    async login(_url, session, res) {
      session.state = randomBytes(24).toString("base64url");
      session.login = undefined;
      redirect(res, oauth.authorizeURL({ redirect_uri: callbackUrl, scope: "user", state: session.state }));
    },
    async callback(url, session, res) {
      const expected = session.state;
      session.state = undefined;
      const error = url.searchParams.get("error");
      if (error) return page(res, 400, "Sign-in failed", error);
      if (!expected || url.searchParams.get("state") !== expected) return page(res, 403, "Sign-in failed", "the state does not match");
      let token: Record<string, unknown>;
      try {
        token = (await oauth.getToken({ code: url.searchParams.get("code") ?? "", redirect_uri: callbackUrl })).token;
      } catch (e) {
        // A 4xx token answer: simple-oauth2 (wreck) throws.
        return page(res, 401, "Sign-in failed", (e as Error).message);
      }
      if (options.checkErrorBody !== false && (typeof token.access_token !== "string" || token.error !== undefined)) {
        return page(res, 401, "Sign-in failed", `${String(token.error)}: ${String(token.error_description ?? "")}`);
      }
      session.login = { scope: String(token.scope ?? "") };
      redirect(res, "/welcome");
    },
  }));
}
