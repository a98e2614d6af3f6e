/** Webhook signature signing and verification, including the DESIGN.md test vector. */
import { describe, expect, it } from "vitest";
import { sign, verifySignatures } from "../../runtime/client/index.ts";

const secret = "It's a Secret to Everybody";
const body = Buffer.from("Hello, World!");
const sha256 = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
const sha1 = sign(secret, body, "sha1");

describe("sign", () => {
  it("matches the DESIGN.md test vector", () => expect(sign(secret, body)).toBe(sha256));
  it("signs with SHA-1 for X-Hub-Signature", () => expect(sha1).toMatch(/^sha1=[0-9a-f]{40}$/));
});

describe("verifySignatures", () => {
  const flip = (s: string) => s.slice(0, -1) + (s.endsWith("0") ? "1" : "0");
  it.each([
    ["both correct", { sha1, sha256 }, [secret], true, undefined],
    ["sha256 only", { sha256 }, [secret], true, undefined],
    ["sha1 only", { sha1 }, [secret], true, undefined],
    ["rotated secret", { sha256 }, ["old", secret], true, undefined],
    ["no secret configured", {}, [], true, undefined],
    ["missing both", {}, [secret], false, "missing"],
    ["wrong secret", { sha256: sign("nope", body) }, [secret], false, "mismatch"],
    ["sha256 tampered", { sha256: flip(sha256) }, [secret], false, "mismatch"],
    ["sha1 good but sha256 wrong", { sha1, sha256: flip(sha256) }, [secret], false, "mismatch"],
    ["sha256 good but sha1 wrong", { sha1: flip(sha1), sha256 }, [secret], false, "mismatch"],
    ["each signed with a different secret", { sha1: sign("old", body, "sha1"), sha256 }, ["old", secret], false, "mismatch"],
    ["wrong algorithm label", { sha256: sha256.replace("sha256=", "sha1=") }, [secret], false, "malformed"],
    ["truncated hex", { sha256: sha256.slice(0, 20) }, [secret], false, "malformed"],
    ["not hex", { sha256: "sha256=" + "z".repeat(64) }, [secret], false, "malformed"],
  ])("%s", (_, signatures, secrets, ok, reason) => {
    const result = verifySignatures({ body, signatures, secrets });
    expect(result.ok).toBe(ok);
    if (!result.ok) expect(result.reason).toBe(reason);
  });

  it("detects a tampered body", () => {
    expect(verifySignatures({ body: Buffer.from("Hello, World?"), signatures: { sha256 }, secrets: [secret] }).ok).toBe(false);
  });

  it("can require SHA-256", () => {
    expect(verifySignatures({ body, signatures: { sha1 }, secrets: [secret], requireSha256: true })).toMatchObject({ ok: false, reason: "missing" });
  });
});
