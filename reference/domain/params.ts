/** key=value parameters of actions: typed reads that fail with a DomainError("invalid"). */
import { DomainError } from "./context.ts";

export function intParam(params: Record<string, string>, key: string, fallback?: number): number {
  const raw = params[key];
  if (raw === undefined) {
    if (fallback !== undefined) return fallback;
    throw new DomainError("invalid", `missing parameter ${key}=N`);
  }
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 2_147_483_647) throw new DomainError("invalid", `${key} must be a positive integer, got "${raw}"`);
  return n;
}

export function oneOf<T extends string>(params: Record<string, string>, key: string, allowed: readonly T[], fallback: T): T {
  const raw = params[key] ?? fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new DomainError("invalid", `${key} must be one of ${allowed.join(", ")}; got "${raw}"`);
  return raw as T;
}
