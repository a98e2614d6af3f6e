/**
 * Secrets at rest. A webhook secret (and a service hook's `password` value) is a key the
 * server must use later — to sign deliveries, to authenticate to a service — so it cannot be kept
 * as a digest like tokens are: it is sealed with AES-256-GCM instead, and only `openSecret`, at
 * delivery time, sees the plaintext again. Two-factor (TOTP) seeds are sealed the same way, with
 * their own purpose (auth/totp-seeds.ts). The key comes from `SERVICE_CONTRACT_SECRET_KEY` (32
 * bytes, hex or base64) when set; otherwise it is generated once and kept in the `server_keys`
 * table, so every instance on one database shares it. That protects against a leaked dump or
 * backup of the hooks table, not against someone holding the whole database (key included) —
 * set the environment variable and keep it elsewhere for that. The key is held per process,
 * because one process serves one database (a process that starts several servers gives each new
 * database the same key); it is not rotated (a changed key cannot open the secrets sealed
 * before).
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { Queryable } from "../db/database.ts";

export const SECRET_KEY_ENV = "SERVICE_CONTRACT_SECRET_KEY";
const KEY_NAME = "hook-secrets";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = "v1:";
// Binds every sealed value to its purpose: a ciphertext made elsewhere with the same key does not
// open (a sealed TOTP seed pasted into a hook's secret column does not sign deliveries).
export type SealPurpose = "hook" | "totp";
const AAD: Record<SealPurpose, Buffer> = {
  hook: Buffer.from("service-contract hook secret v1"),
  totp: Buffer.from("service-contract totp seed v1"),
};

let key: Buffer | undefined;
/** The databases known to hold `key` (checked once each: hook creation calls ensureSecretKey). */
const holding = new WeakSet<Queryable>();

/** A 32-byte key from its hex (64 digits) or base64 text; undefined for anything else. */
export function parseKey(text: string): Buffer | undefined {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, "hex");
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) {
    const bytes = Buffer.from(t, t.includes("-") || t.includes("_") ? "base64url" : "base64");
    if (bytes.length === KEY_BYTES) return bytes;
  }
  return undefined;
}

function fromEnvironment(): Buffer | undefined {
  const text = process.env[SECRET_KEY_ENV];
  if (text === undefined || text === "") return undefined;
  const parsed = parseKey(text);
  if (!parsed) throw new Error(`${SECRET_KEY_ENV} must be 32 bytes, as 64 hex digits or base64`);
  return parsed;
}

async function stored(db: Queryable): Promise<Buffer | undefined> {
  const row = (await db.query<{ key: string }>("select key from server_keys where name = $1", [KEY_NAME]))[0];
  return row ? Buffer.from(row.key, "base64") : undefined;
}

/**
 * Makes sure a key exists and is loaded, generating and storing one on first use. `db` must
 * commit on its own (not a transaction that may roll back): a key this process sealed with must
 * never be missing from the database. Concurrent instances agree through the primary key.
 */
export async function ensureSecretKey(db: Queryable): Promise<void> {
  if (holding.has(db)) return;
  const env = fromEnvironment();
  if (env) {
    key = env;
    holding.add(db);
    return;
  }
  // A process holding a key already offers it to this database too. One process serves one
  // database, but one that starts several servers (the test suite, a bench) must not leave a
  // database without the key its secrets are sealed with, as it did when this returned early.
  await db.query("insert into server_keys (name, key) values ($1, $2) on conflict (name) do nothing", [KEY_NAME, (key ?? randomBytes(KEY_BYTES)).toString("base64")]);
  const mine = await stored(db);
  if (!mine) throw new Error("the hook secret key could not be stored");
  if (key && !key.equals(mine)) throw new Error(`this process already seals secrets with another database's key; serve one database per process, or give every database the same ${SECRET_KEY_ENV}`);
  key = mine;
  holding.add(db);
}

/**
 * Loads the key if one exists, without creating it (safe inside any transaction). Readers of
 * sealed values call it first; no key means nothing was ever sealed in this database.
 */
export async function loadSecretKey(db: Queryable): Promise<void> {
  if (key) return;
  key = fromEnvironment() ?? (await stored(db));
}

function current(): Buffer {
  if (!key) throw new Error("the hook secret key is not loaded (ensureSecretKey / loadSecretKey first)");
  return key;
}

/** `v1:` + base64(iv ‖ tag ‖ ciphertext); a fresh random IV every time, so equal secrets differ. */
export function sealSecret(plain: string, purpose: SealPurpose = "hook"): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", current(), iv);
  cipher.setAAD(AAD[purpose]);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64");
}

/** The plaintext of a `sealSecret` value; throws when it was altered or sealed with another key. */
export function openSecret(sealed: string, purpose: SealPurpose = "hook"): string {
  if (!sealed.startsWith(VERSION)) throw new Error("not a sealed secret");
  const bytes = Buffer.from(sealed.slice(VERSION.length), "base64");
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error("not a sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", current(), bytes.subarray(0, IV_BYTES));
  decipher.setAAD(AAD[purpose]);
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
}

/** Whether `value` has the sealed form (service configs mix sealed and plain values). */
export function isSealed(value: string): boolean {
  return value.startsWith(VERSION);
}
