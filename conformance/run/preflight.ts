/**
 * Before a run: do both hosts answer at all? Any HTTP answer counts (even a 404 on `/`); only a
 * refused connection, a DNS failure or a time-out does not. Without this, an unreachable target
 * would show up as every case failing, which reads like a hundred defects instead of one typo.
 * Each URL is tried once, however often it is given (the API and web hosts may be one).
 */
import { withOwnedTimeout } from "../core/owned-timeout.ts";

export interface Unreachable {
  url: string;
  reason: string;
}

export async function checkReachable(urls: readonly string[], timeoutMs = 5000, fetchImpl: typeof fetch = fetch): Promise<Unreachable[]> {
  const results = await Promise.all(
    [...new Set(urls)].map(async (url): Promise<Unreachable | undefined> => {
      try {
        // Only the answer's head counts: the body is never read (cancelled at once).
        await withOwnedTimeout(timeoutMs, async (signal) => {
          const res = await fetchImpl(url, { method: "GET", redirect: "manual", signal });
          await res.body?.cancel();
        });
        return undefined;
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        let reason = (error as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : (cause?.code ?? cause?.message ?? (error as Error).message);
        // The fetch standard's "bad ports" (6000, 6665-6669, 10080, …): refused without connecting.
        if (reason === "bad port") reason = `port ${portOf(url)} is one fetch refuses to connect to (a "bad port" of the fetch standard): serve the target on another port`;
        return { url, reason };
      }
    }),
  );
  return results.filter((r): r is Unreachable => r !== undefined);
}

function portOf(url: string): string {
  const u = new URL(url);
  return u.port || (u.protocol === "https:" ? "443" : "80");
}
