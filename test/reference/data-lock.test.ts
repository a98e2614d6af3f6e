/**
 * The PGlite data folder lock (reference/db/data-lock.ts) in process: a held folder is refused
 * even to this same process (two PGlite instances on one folder lose writes just the same), a
 * released one can be taken again, and a lock left half-written is waited for, not stolen.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DataDirLockedError, LOCK_FILE, lockDataDir } from "../../reference/db/data-lock.ts";
import { openDatabase } from "../../reference/db/database.ts";
import { ceiling } from "../ceilings.ts";

const scratch = mkdtempSync(join(tmpdir(), "data-lock-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the data folder lock", () => {
  it("refuses a second open of a held folder in the same process, and allows it once closed", async () => {
    const dataDir = join(scratch, "db");
    const first = await openDatabase({ dataDir });
    try {
      await first.exec("create table kept (n int); insert into kept values (1)");
      await expect(openDatabase({ dataDir })).rejects.toBeInstanceOf(DataDirLockedError);
    } finally {
      await first.close();
    }
    const again = await openDatabase({ dataDir });
    try {
      expect(await again.query("select n from kept")).toEqual([{ n: 1 }]);
    } finally {
      await again.close();
    }
  }, ceiling(60_000));

  it("waits for a lock file still being written, and takes it over once it is old", () => {
    const dataDir = join(scratch, "half");
    const file = join(dataDir, LOCK_FILE);
    // A folder with an empty lock file: another process between creating and writing it.
    mkdirSync(dataDir);
    writeFileSync(file, "");
    expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    const release = lockDataDir(dataDir);
    release();
  });
});
