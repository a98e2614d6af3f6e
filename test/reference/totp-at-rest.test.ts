/**
 * TOTP seeds at rest (reference/auth/totp-seeds.ts): the demo's two-factor user is stored with a
 * sealed seed — the base32 text is nowhere in the row — and codes from that seed still sign in
 * over Basic auth; a row written in plain text before sealing still works, and the start step
 * seals it in place; a sealed seed moved into a hook's purpose does not open.
 */
import { describe, expect, it } from "vitest";
import { currentTotp } from "../../reference/auth/totp.ts";
import { sealStoredTotpSeeds, verifyStoredTotp } from "../../reference/auth/totp-seeds.ts";
import { openSecret } from "../../reference/hooks/secret-box.ts";
import { basic, DEMO, useServer } from "./harness.ts";

// The server's clock, moved a minute before each code: a code is good once, and never one of an
// earlier step after it (DECISIONS D-REF-NONWEB-TWO-FACTOR-CODES).
let clock = Date.now();
const t = useServer({ now: () => new Date(clock) });
const SEED = DEMO.monalisa.totpSecret;
const freshCode = () => currentTotp(SEED, (clock += 60_000));

async function storedSeed(): Promise<string> {
  return (await t.server.db.query<{ totp_secret: string }>("select totp_secret from accounts where login = 'monalisa'"))[0]!.totp_secret;
}

async function withCode(code: string): Promise<number> {
  // Each code is accepted once (D-NONWEB-TWO-FACTOR); these tests are about how the seed is
  // stored, so the account forgets the step of the last code it took before each try.
  await t.server.db.query("update accounts set totp_last_step = null where login = 'monalisa'");
  const res = await fetch(`${t.api}/authorizations`, { headers: { authorization: basic(DEMO.monalisa.login, DEMO.monalisa.password), "x-service-otp": code } });
  await res.arrayBuffer();
  return res.status;
}

describe("TOTP seeds at rest", () => {
  it("are stored sealed: the seed's text is not in the row", async () => {
    const stored = await storedSeed();
    expect(stored).toMatch(/^v1:/);
    expect(stored).not.toContain(SEED);
    expect(Buffer.from(stored.slice(3), "base64").toString("latin1")).not.toContain(SEED);
  });

  it("still check codes: the right one signs in, a wrong one does not", async () => {
    expect(await withCode(freshCode())).toBe(200);
    const wrong = currentTotp(SEED, clock) === "123456" ? "654321" : "123456";
    expect(await withCode(wrong)).toBe(401);
  });

  it("are sealed for their purpose: a sealed seed does not open as a hook secret", async () => {
    const stored = await storedSeed();
    expect(() => openSecret(stored)).toThrow();
    expect(openSecret(stored, "totp")).toBe(SEED);
  });

  it("a seed stored in plain text before sealing still works, and the start step seals it", async () => {
    await t.server.db.query("update accounts set totp_secret = $1 where login = 'monalisa'", [SEED]);
    expect(await verifyStoredTotp(t.server.db, SEED, currentTotp(SEED), Date.now())).toBe(true);
    expect(await withCode(freshCode())).toBe(200);
    expect(await sealStoredTotpSeeds(t.server.db)).toBe(1);
    const sealed = await storedSeed();
    expect(sealed).toMatch(/^v1:/);
    expect(await withCode(freshCode())).toBe(200);
    expect(await sealStoredTotpSeeds(t.server.db)).toBe(0);
  });
});
