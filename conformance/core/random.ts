/**
 * Random values cases put on the target: a nonce that keeps names (labels, branches, hook paths)
 * of one run apart from another's, and longer values where a guess must be impossible (a made-up
 * code or token). From node:crypto, so two runs on one target never collide by chance.
 */
import { randomBytes } from "node:crypto";

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

/** Eight hex characters: enough to tell runs and hooks apart. */
export function nonce(): string {
  return randomHex(4);
}
