/**
 * A password verified once is not run through scrypt again for a while (reference/auth/
 * verified-passwords.ts): only successes are remembered, keyed by the stored hash and the password
 * under a process key, dropped after their time or past the limit.
 */
import { describe, expect, it } from "vitest";
import { hashPassword, rememberedPasswords, verifyPassword } from "../../reference/auth/secrets.ts";
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
  it("remembers a success once, never a failure, and a new hash of the same account starts afresh", async () => {
    const stored = await hashPassword("correct horse");
    const before = rememberedPasswords();
    expect(await verifyPassword("wrong horse", stored)).toBe(false);
    expect(rememberedPasswords()).toBe(before);
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(rememberedPasswords()).toBe(before + 1);
    // Answered from the memo: still true, and no second entry.
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(rememberedPasswords()).toBe(before + 1);
    // A remembered success does not make a wrong password pass.
    expect(await verifyPassword("correct horse ", stored)).toBe(false);
    // A changed password is a new stored hash: the old password does not pass it.
    const changed = await hashPassword("battery staple");
    expect(await verifyPassword("correct horse", changed)).toBe(false);
    expect(await verifyPassword("battery staple", changed)).toBe(true);
    // Unknown login (no stored hash): false, nothing remembered.
    const after = rememberedPasswords();
    expect(await verifyPassword("correct horse", null)).toBe(false);
    expect(rememberedPasswords()).toBe(after);
  });
});
