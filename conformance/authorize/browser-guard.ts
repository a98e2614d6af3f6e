/**
 * Credentials stay home in the browser driver (browser.ts): whether a request Chromium is about to
 * send leaves the target's origins (and the identity providers the profile names) with a secret of
 * the profile in its URL or body, and a context-wide route that fails such requests in the
 * browser. The page's own DevTools Fetch pause (browser.ts) makes the same check on what the route
 * misses — requests a redirect started — and the route on what that session misses: popups the
 * page opens and frames of other sites.
 */
import type { BrowserContext } from "playwright-core";
import type { CaseFailure } from "../core/failure.ts";
import { carriesSecret, secretLeavesHome } from "../core/credentials-home.ts";

/** Where secrets may go (the target's origins and the profile's identity providers), and which. */
export interface Home {
  origins: ReadonlySet<string>;
  secrets: readonly string[];
}

export interface PausedRequest {
  url: string;
  hasPostData?: boolean;
  postData?: string;
  postDataEntries?: { bytes?: string }[];
}

/** The body of a paused request as far as DevTools hands it over; undefined when there is one it does not. */
function bodyOf(request: PausedRequest): string | undefined {
  if (!request.hasPostData) return "";
  if (request.postDataEntries?.length) return request.postDataEntries.map((e) => Buffer.from(e.bytes ?? "", "base64").toString("utf8")).join("");
  return request.postData;
}

/**
 * A request leaving home with a secret: its URL or body carries one, or it has a body DevTools
 * did not hand over (not knowing is no licence to send it).
 */
export function leaksSecret(request: PausedRequest, url: URL, home: Home): boolean {
  if (home.origins.has(url.origin)) return false;
  const body = bodyOf(request);
  return body === undefined || carriesSecret(request.url, home.secrets) || carriesSecret(body, home.secrets);
}

/**
 * The check on every request of the browser context — popups the page opens and frames of other
 * sites included, which the page's own DevTools session does not see. (Playwright's routes miss
 * requests a redirect started; the page's Fetch pause sees those.)
 */
export async function guardContext(context: BrowserContext, home: Home, leaked: { resolve(failure: CaseFailure): void }): Promise<void> {
  await context.route("**/*", async (route) => {
    const request = route.request();
    let url: URL | undefined;
    try {
      url = new URL(request.url());
    } catch {
      url = undefined;
    }
    const body = request.postDataBuffer();
    const paused: PausedRequest = { url: request.url(), hasPostData: body !== null, postData: body?.toString("utf8") };
    if (url && /^https?:$/.test(url.protocol) && leaksSecret(paused, url, home)) {
      leaked.resolve(secretLeavesHome(url.href, home.origins, "a credential of the profile (in the URL or body of a request the page made)"));
      await route.abort("blockedbyclient").catch(() => undefined);
    } else await route.fallback().catch(() => undefined);
  });
}
