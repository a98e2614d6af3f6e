/**
 * An OAuth web-flow client on openid-client 6.9.0, its documented usage and defaults: the
 * non-discovery `Configuration` (the service publishes no discovery document), plain http allowed
 * for the loopback authorization server, PKCE (S256) and a state kept in the session, the
 * library's default client authentication (client_secret_post when a secret is given, in 6.9.0),
 * `authorizationCodeGrant` checking the callback and the token answer — which rejects a 200 body
 * without an access_token by itself. `basic: true` picks its `ClientSecretBasic` instead (the
 * client_secret_basic of OpenID Connect's registration default).
 */
import * as client from "openid-client";
import { page, redirect, startWebApp, type TestClient } from "./web-app.ts";

export interface OpenIdClientOptions {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** Client authentication with HTTP Basic (client.ClientSecretBasic) rather than the library's default. */
  basic?: boolean;
}

export function startOpenIdClient(options: OpenIdClientOptions): Promise<TestClient> {
  const config = new client.Configuration(
    { issuer: options.authUrl, authorization_endpoint: `${options.authUrl}/login/oauth/authorize`, token_endpoint: `${options.authUrl}/login/oauth/access_token` },
    options.clientId,
    options.clientSecret,
    options.basic ? client.ClientSecretBasic(options.clientSecret) : undefined,
  );
  client.allowInsecureRequests(config);
  return startWebApp((callbackUrl) => ({
    async login(_url, session, res) {
      session.verifier = client.randomPKCECodeVerifier();
      session.state = client.randomState();
      session.login = undefined;
      const authorize = client.buildAuthorizationUrl(config, {
        redirect_uri: callbackUrl,
        scope: "user",
        state: session.state,
        code_challenge: await client.calculatePKCECodeChallenge(session.verifier),
        code_challenge_method: "S256",
      });
      redirect(res, authorize.href);
    },
    async callback(url, session, res) {
      const { state, verifier } = session;
      session.state = undefined;
      session.verifier = undefined;
      if (!state || !verifier) return page(res, 400, "Sign-in failed", "no sign-in in progress");
      try {
        const tokens = await client.authorizationCodeGrant(config, url, { pkceCodeVerifier: verifier, expectedState: state });
        session.login = { scope: tokens.scope ?? "" };
      } catch (e) {
        return page(res, 401, "Sign-in failed", `${(e as Error).name}: ${(e as Error).message}`);
      }
      redirect(res, "/welcome");
    },
  }));
}
