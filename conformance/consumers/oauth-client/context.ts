/**
 * What an OAuth client case works with: the profile, the authorization server (the reference
 * behind its recording proxy) and `signIn`, one sign-in through the client in a fresh browser
 * context — the user's earlier grant revoked first, so the consent page (approve or deny) always
 * shows — returning what the browser saw, the token requests the client made meanwhile, and the
 * outcome by the profile's success matcher. Plus the checks the cases share: a success counts only
 * when the client's token request was answered with a token (its page alone proves nothing: a
 * client may show "signed in" after an error body), and every failure says what the client was
 * answered.
 */
import type { CaseMeta } from "../../core/types.ts";
import { CaseFailure, SkipCase } from "../../core/failure.ts";
import type { AuthorizationServer, TokenRequest } from "./authorization-server.ts";
import { describeAnswer, gotToken } from "./token-relay.ts";
import type { ClientBrowser, FlowOptions, FlowResult } from "./browser.ts";
import { matches, type ClientProfile } from "./profile.ts";

export interface SignIn extends FlowResult {
  tokenRequests: TokenRequest[];
  outcome: "success" | "failure";
}

export interface ClientContext {
  profile: ClientProfile;
  server: AuthorizationServer;
  signIn(options?: Pick<FlowOptions, "decision" | "onCallback"> & { startUrl?: string }): Promise<SignIn>;
  note(text: string): void;
  skip(reason: string): never;
}

export interface ClientCase extends CaseMeta {
  run(ctx: ClientContext): Promise<void>;
}

export function clientContext(profile: ClientProfile, server: AuthorizationServer, browser: ClientBrowser, notes: string[], signal: AbortSignal): ClientContext {
  return {
    profile,
    server,
    async signIn(options = {}) {
      await server.revokeGrant(profile);
      const before = server.tokenRequests.length;
      const flow = await browser.signIn({ ...options, startUrl: options.startUrl ?? profile.startUrl, authUrl: server.urls.auth, callbackUrl: profile.callbackUrl, signal });
      const tokenRequests = server.tokenRequests.slice(before);
      const outcome = matches(profile.success, flow.final) ? "success" : "failure";
      notes.push(`${outcome}: ${flow.final.url}${flow.final.status ? ` (${flow.final.status})` : ""}`);
      return { ...flow, tokenRequests, outcome };
    },
    note: (text) => void notes.push(text),
    skip(reason): never {
      throw new SkipCase(reason);
    },
  };
}

function page(s: SignIn): string {
  return `${s.final.url}${s.final.status ? ` (HTTP ${s.final.status})` : ""}: ${s.final.text.slice(0, 200)}`;
}

/** The authorize request the client built (the first, if it sent several). */
export function authorizeRequest(s: SignIn): URL {
  const first = s.authorizeRequests[0];
  if (!first) throw new CaseFailure("opening the start URL did not lead the browser to the authorize page", { expected: "a redirect to /login/oauth/authorize", actual: page(s) });
  return first;
}

/** What the client's last token request was answered ("… answered 200 {error: …}"), for messages. */
export function answered(s: SignIn): string {
  const last = s.tokenRequests.at(-1);
  return last ? `its token request was answered ${describeAnswer(last.answer)}` : "it made no token request";
}

/** The sign-in worked: the client's (last) token request got a token, and its page says signed in. */
export function expectSuccess(s: SignIn, profile: ClientProfile, what: string): void {
  const token = gotToken(s.tokenRequests.at(-1)?.answer);
  if (s.outcome === "success" && token) return;
  if (s.outcome === "success") {
    throw new CaseFailure(`${what}: the client reported a successful sign-in ${s.tokenRequests.length > 0 ? `after ${answered(s)}` : "without a token request"}`, { expected: "a token answer before the success page", actual: answerSummary(s) });
  }
  throw new CaseFailure(`${what}: the client did not report a successful sign-in (${answered(s)})`, { expected: profile.success, actual: page(s) });
}

function answerSummary(s: SignIn): { page: string; answers: string[] } {
  return { page: page(s), answers: s.tokenRequests.map((t) => describeAnswer(t.answer)) };
}

/**
 * The client reported a failure, as a page of its own (not a crash: no 5xx), matching the
 * profile's failure matcher when it has one.
 */
export function expectHandledFailure(s: SignIn, profile: ClientProfile, what: string): void {
  if (s.outcome === "success") throw new CaseFailure(`${what}: the client reported a successful sign-in${s.tokenRequests.length > 0 ? ` after ${answered(s)}` : " without a token"}`, { expected: profile.failure ?? "not the success page", actual: answerSummary(s) });
  if (s.final.status !== undefined && s.final.status >= 500) throw new CaseFailure(`${what}: the client crashed (a server error) instead of reporting the failure`, { expected: "a page saying the sign-in failed (not a 5xx)", actual: page(s) });
  if (profile.failure && !matches(profile.failure, s.final)) throw new CaseFailure(`${what}: the client's page is not its failure page`, { expected: profile.failure, actual: page(s) });
}

export function expectNoExchange(s: SignIn, what: string): void {
  if (s.tokenRequests.length === 0) return;
  throw new CaseFailure(`${what}: the client exchanged the code anyway`, { expected: "no token request", actual: s.tokenRequests.map((t) => ({ ...t.fields, ...(t.fields.client_secret ? { client_secret: "(hidden)" } : {}) })) });
}
