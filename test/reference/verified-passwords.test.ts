/**
 * A password verified once is not run through scrypt again for a while (reference/auth/
 * verified-passwords.ts): only successes are remembered, keyed by the stored hash and the password
 * under a process key, dropped after their time or past the limit.
 */
import { describe, expect, it } from "vitest";
import { hashPassword, passwordDerivations, verifyPassword } from "../../reference/auth/secrets.ts";
import { VerifiedPasswords } from "../../reference/auth/verified-passwords.ts";

describe("VerifiedPasswords", () => {
  it("remembers a success for its pair only, until its time is up", () => {
    let now = 1_000;
    const memo = new VerifiedPasswords({ ttlMs: 100, now: () => now });
    memo.remember("scrypt$a", "secret");
    expect(memo.has("scrypt$a", "secret")).toBe(true);
    expect(memo.has("scrypt$a", "Secret")).toBe(false);
    expect(memo.has("scrypt$b", "secret")).toBe(false);
    // The length prefix: moving characters between the hash and the password makes another pair.
    expect(memo.has("scrypt$", "asecret")).toBe(false);
    now += 99;
    expect(memo.has("scrypt$a", "secret")).toBe(true);
    now += 1;
    expect(memo.has("scrypt$a", "secret")).toBe(false);
    expect(memo.size).toBe(0);
  });

  it("keeps at most its limit, dropping the oldest", () => {
    const memo = new VerifiedPasswords({ limit: 2 });
    memo.remember("h1", "p");
    memo.remember("h2", "p");
    memo.remember("h3", "p");
    expect(memo.size).toBe(2);
    expect(memo.has("h1", "p")).toBe(false);
    expect(memo.has("h2", "p")).toBe(true);
    expect(memo.has("h3", "p")).toBe(true);
  });

  it("two processes' memos do not recognise each other's entries (each has its own key)", () => {
    const a = new VerifiedPasswords();
    const b = new VerifiedPasswords();
    a.remember("h", "p");
    expect(b.has("h", "p")).toBe(false);
  });
});

describe("verifyPassword with the memo", () => {
  it("runs scrypt once for a repeated success, every time for a failure, and again for a new hash", async () => {
    const stored = await hashPassword("correct horse");
    // scrypt runs for each call below exactly when the memo cannot answer it.
    const runs = async (password: string, hash: string | null, expected: boolean): Promise<number> => {
      const before = passwordDerivations();
      expect(await verifyPassword(password, hash)).toBe(expected);
      return passwordDerivations() - before;
    };
    expect(await runs("wrong horse", stored, false)).toBe(1);
    expect(await runs("correct horse", stored, true)).toBe(1);
    // Answered from the memo: still true, and no scrypt.
    expect(await runs("correct horse", stored, true)).toBe(0);
    // A failure is never remembered (guessing stays slow), nor made to pass by a remembered success.
    expect(await runs("wrong horse", stored, false)).toBe(1);
    expect(await runs("correct horse ", stored, false)).toBe(1);
    // A changed password is a new stored hash: the old password does not pass it, the new one is checked.
    const changed = await hashPassword("battery staple");
    expect(await runs("correct horse", changed, false)).toBe(1);
    expect(await runs("battery staple", changed, true)).toBe(1);
    expect(await runs("battery staple", changed, true)).toBe(0);
    // Unknown login (no stored hash): false after the same work as a known one, nothing remembered.
    expect(await runs("correct horse", null, false)).toBe(1);
    expect(await runs("correct horse", null, false)).toBe(1);
  });
});
