/**
 * A statement run on its own that PostgreSQL picks as a deadlock's victim is run again by the
 * adapter (reference/db/postgres.ts againOnDeadlock): two instances on one database met this
 * (a hook's DELETE against the other instance's delivery worker answered 500). Made on purpose
 * here with two advisory locks taken in opposite orders: the lone statement takes 1 then waits on
 * 2, a transaction holding 2 then waits on 1. The statement waited first, so its deadlock check
 * runs first and it is the victim; without the retry it rejects with 40P01.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { openPostgres } from "../../reference/db/postgres.ts";
import type { Database } from "../../reference/db/database.ts";
import { adminUrl, describePostgres } from "./postgres-db.ts";
import { ceiling } from "../ceilings.ts";

describePostgres("a deadlock's victim, run on its own", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openPostgres(adminUrl!);
  });
  afterAll(async () => {
    await db?.close();
  });

  /** Resolves once a backend waits for advisory lock `key` (pg_locks), polling. */
  async function waitingFor(key: number): Promise<void> {
    for (;;) {
      const rows = await db.query("select 1 from pg_locks where locktype = 'advisory' and objid = $1 and not granted", [key]);
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it("is run again and succeeds once the other transaction is done", async () => {
    const [k1, k2] = [Math.floor(Math.random() * 1e9), Math.floor(Math.random() * 1e9) + 1];
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    // The transaction: takes k2, waits until told, then asks for k1 (the lone statement holds it).
    const transaction = db.transaction(async (tx) => {
      await tx.query("select pg_advisory_xact_lock($1)", [k2]);
      holding();
      await finished;
      await tx.query("select pg_advisory_xact_lock($1)", [k1]);
    });
    await held;
    // The lone statement: takes k1, then waits on k2.
    const alone = db.query("select pg_advisory_xact_lock($1::bigint) as a, pg_advisory_xact_lock($2::bigint) as b", [k1, k2]);
    await waitingFor(k2);
    finish();
    // PostgreSQL aborts the statement (40P01); the adapter runs it again after the transaction commits.
    await expect(alone).resolves.toHaveLength(1);
    await expect(transaction).resolves.toBeUndefined();
  }, ceiling(30_000));
});
