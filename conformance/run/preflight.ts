/**
 * Before a run: do both hosts answer at all? Any HTTP answer counts (even a 404 on `/`); only a
 * refused connection, a DNS failure or a time-out does not. Without this, an unreachable target
 * would show up as every case failing, which reads like a hundred defects instead of one typo.
 */
export interface Unreachable {
  url: string;
  reason: string;
}

export async function checkReachable(urls: readonly string[], timeoutMs = 5000, fetchImpl: typeof fetch = fetch): Promise<Unreachable[]> {
  const results = await Promise.all(
    urls.map(async (url): Promise<Unreachable | undefined> => {
      try {
        const res = await fetchImpl(url, { method: "GET", redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
        await res.body?.cancel();
        return undefined;
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        const reason = (error as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : (cause?.code ?? cause?.message ?? (error as Error).message);
        return { url, reason };
      }
    }),
  );
  return results.filter((r): r is Unreachable => r !== undefined);
}
