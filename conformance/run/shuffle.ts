/**
 * `--shuffle[=SEED]`: the selected cases in an order drawn from a seed, so that a verdict that
 * depends on what ran before shows up, and the order that showed it can be run again. The seed is
 * printed (and kept in results.json as `order.shuffle`), as test runners do; the same seed over
 * the same selection gives the same order. A small seeded generator (mulberry32) and a
 * Fisher–Yates pass: the order must be reproducible, not unguessable.
 */
import { randomInt } from "node:crypto";

/** A seed for a run that asked for a shuffle without one: 1 … 2³¹−1, printed so it can be given again. */
export function newShuffleSeed(): number {
  return randomInt(1, 2 ** 31 - 1);
}

/** `--shuffle` takes an optional whole number; anything else is a usage error (undefined here). */
export function parseShuffleSeed(text: string): number | undefined {
  if (!/^\d{1,10}$/.test(text.trim())) return undefined;
  const n = Number(text);
  return n >= 1 && n <= 2 ** 31 - 1 ? n : undefined;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A new array: `items` in the order `seed` draws. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const next = mulberry32(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
