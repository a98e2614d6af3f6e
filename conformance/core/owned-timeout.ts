/**
 * A time limit held by a timer the suite owns. `AbortSignal.timeout()` is only weakly held on
 * Node 20 (alone or inside `AbortSignal.any`): a garbage collection while a request waits loses
 * it, and the request then waits as long as the target likes. Here the timer holds the
 * controller until `done()` clears it, which the caller does when the request (and its body) is
 * over.
 */
export function ownedTimeout(ms: number, message = `no answer within ${ms} ms`): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(message, "TimeoutError")), ms);
  return { signal: controller.signal, done: () => clearTimeout(timer) };
}

/** `work` under a limit of `ms`, the timer cleared when it settles. */
export async function withOwnedTimeout<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { signal, done } = ownedTimeout(ms);
  try {
    return await work(signal);
  } finally {
    done();
  }
}
