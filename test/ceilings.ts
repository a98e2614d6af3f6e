/**
 * Ceilings for the waits in tests: how long a test, a hook or a wait for a condition (a ready
 * line, a delivery, a file) may take before it is given up as hung. They are not expectations of
 * speed — benchmarks measure that (bench/) — so they are set for a slow machine, not a quiet one:
 * on a 2-core machine at load 8–16 everything takes several times as long as on a quiet one, and
 * a test that fails there tells its reader nothing. Each wait still ends as soon as its condition
 * holds, so a generous ceiling costs nothing on a healthy run.
 *
 * `ceiling(ms)` is the time a step needed on a quiet machine with room to spare, times
 * CEILING_SCALE (default 5; `TEST_CEILING_SCALE=10 npm test` on a slower machine still).
 */
const configured = Number(process.env.TEST_CEILING_SCALE);
export const CEILING_SCALE = Number.isFinite(configured) && configured > 0 ? configured : 5;

export function ceiling(quietMs: number): number {
  return Math.round(quietMs * CEILING_SCALE);
}
