/**
 * The OAuth web-flow client suite: `conformance --oauth-client --profile FILE`, or
 * `runOAuthClientSuite` as a library. The reference server plays the authorization server at the
 * profile's authUrl (authorization-server.ts), Chromium plays the user (browser.ts), and each
 * case steers one or two sign-ins and judges the client (cases.ts). Same runner pieces and
 * reporters as the server suite, so reports and exit codes are the same.
 */
import { performance } from "node:perf_hooks";
import type { CaseResult, RunSummary } from "../../core/types.ts";
import { HttpClient } from "../../core/http.ts";
import { DEFAULT_CASE_TIMEOUT_MS, runCase, SelectionError, summarize, type ProgressEvent } from "../../run/runner.ts";
import { selectCases } from "../../run/select.ts";
import { startAuthorizationServer, type AuthorizationServer } from "./authorization-server.ts";
import { clientBrowser } from "./browser.ts";
import { CLIENT_CASES } from "./cases.ts";
import { clientContext, type ClientCase } from "./context.ts";
import type { ClientProfile } from "./profile.ts";
import { secretRedactor } from "../../core/secret-redact.ts";

export { CLIENT_CASES };
export { startAuthorizationServer, type AuthorizationServer } from "./authorization-server.ts";
export { checkClientProfile, ClientProfileError, loadClientProfile, type ClientProfile } from "./profile.ts";
export type { ClientCase, ClientContext } from "./context.ts";

export interface OAuthClientSuiteOptions {
  profile: ClientProfile;
  cases?: readonly ClientCase[];
  only?: string | readonly string[];
  skip?: string | readonly string[];
  /** Per case; default 30 s. */
  timeoutMs?: number;
  onProgress?: (event: ProgressEvent) => void;
  /**
   * An authorization server to use instead of starting one (the caller closes it): several runs,
   * for several clients at the same authUrl, share one. The profile's app is registered on it.
   */
  server?: AuthorizationServer;
  /** Called once the authorization server listens, before the first case. */
  onStarted?: (urls: AuthorizationServer["urls"]) => void;
}

export async function runOAuthClientSuite(options: OAuthClientSuiteOptions): Promise<RunSummary> {
  const { selected, unmatched } = selectCases(options.cases ?? CLIENT_CASES, options.only, options.skip);
  if (unmatched.length > 0) throw new SelectionError(`--only ${unmatched.join(",")} matches no case`);
  if (selected.length === 0) throw new SelectionError("the selection is empty (every case is excluded by --skip)");

  const server = options.server ?? (await startAuthorizationServer(options.profile));
  if (options.server) {
    if (options.server.urls.auth !== options.profile.authUrl.replace(/\/+$/, "")) throw new Error(`the authorization server listens on ${options.server.urls.auth}, the profile says ${options.profile.authUrl}`);
    await options.server.register(options.profile);
  }
  const browser = clientBrowser();
  const target = { baseUrl: options.profile.startUrl, authUrl: server.urls.auth };
  const startedAt = new Date();
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_CASE_TIMEOUT_MS;
  const results: CaseResult[] = [];
  // The client's secret leaves no result: redacted as each is made, like the server suite's.
  const redact = secretRedactor({ users: [], app: { clientId: options.profile.clientId, clientSecret: options.profile.clientSecret, callbackUrl: options.profile.callbackUrl } });
  try {
    options.onStarted?.(server.urls);
    options.onProgress?.({ type: "start", total: selected.length, target });
    for (const [index, c] of selected.entries()) {
      const result = redact(
        await runCase(c, timeoutMs, (signal, notes) => ({
          // The client's requests are not the suite's: the curl line, if any, is the suite's own.
          http: new HttpClient(server.urls.api, server.urls.auth, fetch, { signal }),
          run: () => c.run(clientContext(options.profile, server, browser, notes, signal)),
        })),
      );
      results.push(result);
      options.onProgress?.({ type: "case", result, index, total: selected.length });
    }
  } finally {
    await browser.close().catch(() => undefined);
    if (!options.server) await server.close();
  }
  const summary = summarize(target, startedAt, performance.now() - started, results);
  options.onProgress?.({ type: "end", summary });
  return summary;
}
