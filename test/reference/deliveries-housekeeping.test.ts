/**
 * The PGlite housekeeping of the delivery engine (reference/deliveries/housekeeping.ts) against a
 * fake Database that records the statements it is given: a pass (VACUUM ANALYZE of the job
 * table, then ANALYZE of the delivery log, as two statements) at start, then after 500 attempts
 * written, twice as many each time up to 100,000; never two passes at once; `idle` (what the
 * engine's stop awaits) resolves only once a running pass is over; a failing pass goes to
 * onError and does not stop later ones.
 */
import { describe, expect, it } from "vitest";
import type { Database } from "../../reference/db/database.ts";
import { Housekeeping } from "../../reference/deliveries/housekeeping.ts";

const PASS = ["vacuum (analyze) pgboss.job", "analyze hook_deliveries, hook_delivery_attempts"];

/** A Database whose exec records its statement and waits for `gate` (open unless closed). */
function fakeDb() {
  const statements: string[] = [];
  let gate: Promise<void> = Promise.resolve();
  let fail: Error | undefined;
  const db = {
    kind: "pglite",
    async exec(sql: string) {
      statements.push(sql);
      await gate;
      if (fail) throw fail;
    },
  } as unknown as Database;
  return {
    db,
    statements,
    /** exec waits until the returned function is called. */
    hold(): () => void {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      return () => {
        gate = Promise.resolve();
        open();
      };
    },
    failWith(error: Error | undefined) {
      fail = error;
    },
  };
}

const noErrors = (error: unknown) => {
  throw new Error(`unexpected onError: ${String(error)}`);
};

describe("housekeeping", () => {
  it("runs one pass at start: the two statements, one at a time, in order", async () => {
    const f = fakeDb();
    await new Housekeeping(f.db, noErrors).start();
    expect(f.statements).toEqual(PASS);
  });

  it("runs again after 500 attempts written, then 1,000, 2,000 … doubling up to 100,000", async () => {
    const f = fakeDb();
    const h = new Housekeeping(f.db, noErrors);
    await h.start();
    f.statements.length = 0;
    // Every threshold is a multiple of 100: write in steps of 100 and note where passes start.
    const passesAt: number[] = [];
    let sinceLast = 0;
    while (passesAt.length < 11) {
      h.written(100);
      sinceLast += 100;
      if (f.statements.length > 0) {
        expect(f.statements).toEqual([PASS[0]]);
        await h.idle();
        expect(f.statements).toEqual(PASS);
        f.statements.length = 0;
        passesAt.push(sinceLast);
        sinceLast = 0;
      }
    }
    expect(passesAt).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 100_000, 100_000, 100_000]);
  });

  it("counts attempts in one call and across calls alike", async () => {
    const f = fakeDb();
    const h = new Housekeeping(f.db, noErrors);
    h.written(499);
    expect(f.statements).toEqual([]);
    h.written(1);
    await h.idle();
    expect(f.statements).toEqual(PASS);
    f.statements.length = 0;
    h.written(999);
    expect(f.statements).toEqual([]);
    h.written(5000);
    await h.idle();
    expect(f.statements).toEqual(PASS);
  });

  it("never starts a pass while one runs; what was written meanwhile counts towards the next", async () => {
    const f = fakeDb();
    const h = new Housekeeping(f.db, noErrors);
    const release = f.hold();
    h.written(500);
    expect(f.statements).toEqual([PASS[0]]);
    h.written(10_000);
    expect(f.statements).toEqual([PASS[0]]);
    release();
    await h.idle();
    expect(f.statements).toEqual(PASS);
    f.statements.length = 0;
    // 10,000 already written since that pass began: past the next threshold (1,000).
    h.written(1);
    await h.idle();
    expect(f.statements).toEqual(PASS);
  });

  it("idle (awaited by the engine's stop) resolves only once the running pass is over", async () => {
    const f = fakeDb();
    const h = new Housekeeping(f.db, noErrors);
    const release = f.hold();
    const started = h.start();
    let idle = false;
    const waiting = h.idle().then(() => (idle = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(idle).toBe(false);
    expect(f.statements).toEqual([PASS[0]]);
    release();
    await waiting;
    expect(f.statements).toEqual(PASS);
    await started;
    // With nothing running, idle resolves at once.
    await h.idle();
  });

  it("hands a failing pass's error to onError (start still resolves), and runs later passes", async () => {
    const f = fakeDb();
    const errors: unknown[] = [];
    const h = new Housekeeping(f.db, (e) => errors.push(e));
    const boom = new Error("vacuum failed");
    f.failWith(boom);
    await h.start(); // resolves, not rejects
    expect(errors).toEqual([boom]);
    f.failWith(undefined);
    f.statements.length = 0;
    h.written(500);
    await h.idle();
    expect(f.statements).toEqual(PASS);
    expect(errors).toEqual([boom]);
  });
});
