/**
 * TOTP seeds at rest (`accounts.totp_secret`): sealed like hook secrets (hooks/secret-box.ts,
 * purpose `totp`), because a seed is a key the server must use again to check codes, so it cannot
 * be a digest. Rows written before sealing (plain base32) are sealed once at start
 * (`sealStoredTotpSeeds`, run after the migrations); a plain value still read is used as it is,
 * so a server that has not run that step yet keeps working.
 *
 * A code is good once (RFC 6238 §5.2): `acceptStoredTotp` records the step of each accepted code
 * in `accounts.totp_last_step` and refuses a code of that step or an earlier one, so neither a
 * replayed code nor the previous step's code (still inside the ±1 drift window) passes again.
 */
import type { Queryable } from "../db/database.ts";
import { ensureSecretKey, isSealed, loadSecretKey, openSecret, sealSecret } from "../hooks/secret-box.ts";
import { totpStep, verifyTotp } from "./totp.ts";

/** The sealed form of a base32 seed; `db` commits on its own (see ensureSecretKey). */
export async function sealTotpSeed(db: Queryable, seed: string): Promise<string> {
  await ensureSecretKey(db);
  return sealSecret(seed, "totp");
}

/** Whether `code` is valid now for the stored (sealed) seed. */
export async function verifyStoredTotp(db: Queryable, stored: string | null, code: string, now: number): Promise<boolean> {
  if (stored === null) return false;
  let seed = stored;
  if (isSealed(stored)) {
    await loadSecretKey(db);
    seed = openSecret(stored, "totp");
  }
  return verifyTotp(seed, code, now);
}

/**
 * Whether `code` is valid now for the account's stored seed and newer than every code accepted
 * before; when it is, it is spent. One conditional update: of two requests with one code, one wins.
 */
export async function acceptStoredTotp(db: Queryable, account: { id: number; totp_secret: string | null }, code: string, now: number): Promise<boolean> {
  if (account.totp_secret === null) return false;
  let seed = account.totp_secret;
  if (isSealed(seed)) {
    await loadSecretKey(db);
    seed = openSecret(seed, "totp");
  }
  const step = totpStep(seed, code, now);
  if (step === undefined) return false;
  const rows = await db.query("update accounts set totp_last_step = $2 where id = $1 and (totp_last_step is null or totp_last_step < $2) returning id", [account.id, step]);
  return rows.length > 0;
}

/** Seals the seeds still stored in plain text; returns how many. Safe to run at every start. */
export async function sealStoredTotpSeeds(db: Queryable): Promise<number> {
  const rows = await db.query<{ id: number; totp_secret: string }>("select id, totp_secret from accounts where totp_secret is not null and totp_secret not like 'v1:%'");
  for (const row of rows) {
    // The seed compared too: an instance starting at the same time may have sealed it already.
    await db.query("update accounts set totp_secret = $1 where id = $2 and totp_secret = $3", [await sealTotpSeed(db, row.totp_secret), row.id, row.totp_secret]);
  }
  return rows.length;
}
