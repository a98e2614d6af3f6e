/**
 * The delivery engine's settings (reference/deliveries/options.ts): defaults, the expiry kept
 * far enough above the attempt time-out that a fetched job can always be sent (a margin of zero
 * once made the worker hand back every job it fetched, so nothing was ever delivered), and the
 * SERVICE_CONTRACT_DELIVERIES variable's errors.
 */
import { describe, expect, it } from "vitest";
import { optionsFromEnv, resolveOptions, slotWaitMs } from "../../reference/deliveries/options.ts";

describe("resolveOptions", () => {
  it("defaults to the documented schedule, a 10 s time-out and a 30 s expiry", () => {
    const o = resolveOptions();
    expect(o).toMatchObject({ timeoutMs: 10_000, expireInSeconds: 30, concurrency: 16, maxBodyBytes: 25 * 1024 * 1024 });
  });

  it.each([
    [{ timeoutMs: 5000, expireInSeconds: 3 }, 7, 1000],
    [{ timeoutMs: 5000, expireInSeconds: 6 }, 7, 1000],
    [{ timeoutMs: 4500 }, 30, 24_500],
    [{ timeoutMs: 1500, expireInSeconds: 1 }, 4, 1500],
    [{ timeoutMs: 3000, expireInSeconds: 5 }, 5, 1000],
  ])("%j expires after %i s: a second to write the outcome and %i ms (a second or more) of waiting for a slot beyond the time-out", (given, expected, wait) => {
    const o = resolveOptions(given);
    expect(o.expireInSeconds).toBe(expected);
    expect(slotWaitMs(o)).toBe(wait);
    expect(slotWaitMs(o)).toBeGreaterThanOrEqual(1000);
  });
});

describe("optionsFromEnv", () => {
  it("reads schedule keys at the top level", () => {
    expect(optionsFromEnv('{"attempts":3,"baseDelayMs":50,"timeoutMs":1000}')).toEqual({ timeoutMs: 1000, schedule: { attempts: 3, baseDelayMs: 50 } });
  });

  it.each([
    ["not json", /must be a JSON object/],
    ["[1]", /must be a JSON object/],
    ['{"bogus":1}', /unknown key bogus/],
    ['{"attempts":0}', /attempts must be a positive integer/],
    ['{"timeoutMs":-1}', /timeoutMs must be a number ≥ 0/],
  ])("refuses %s", (text, message) => {
    expect(() => optionsFromEnv(text)).toThrow(message);
  });
});
