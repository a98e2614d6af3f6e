// util.ts — shared helpers: random ids, constant-time comparison, request bodies, escaping, dates, paging and Link headers.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export type JsonObject = Record<string, unknown>;

export const DAY = 86_400_000;

export const randomHex = (bytes: number): string => randomBytes(bytes).toString("hex");

export const sha256Hex = (s: string): string => createHash("sha256").update(s, "utf8").digest("hex");

/** Constant-time string equality; hashing first hides the lengths too. */
export function safeEqual(a: string, b: string): boolean {
  const x = createHash("sha256").update(a, "utf8").digest();
  const y = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(x, y);
}

/** ISO 8601 UTC without milliseconds, as the service writes timestamps. */
export const iso = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, "Z");

/** Reads a request body of at most `limit` bytes; null when larger or broken. */
export function readBody(req: IncomingMessage, limit = 1_000_000): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (v: Buffer | null): void => {
      if (!done) { done = true; resolve(v); }
    };
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) finish(null);
      else if (!done) chunks.push(c);
    });
    req.on("end", () => finish(Buffer.concat(chunks)));
    req.on("error", () => finish(null));
    req.on("close", () => finish(Buffer.concat(chunks)));
  });
}

/** Parses a JSON object body; an empty body is an empty object. */
export function parseJsonObject(buf: Buffer): { ok: true; value: JsonObject } | { ok: false; message: string } {
  const text = buf.toString("utf8").trim();
  if (text === "") return { ok: true, value: {} };
  let v: unknown;
  try { v = JSON.parse(text); } catch { return { ok: false, message: "Problems parsing JSON" }; }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return { ok: false, message: "Body should be a JSON object" };
  return { ok: true, value: v as JsonObject };
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

/** A positive integer from a query or path value, else undefined. */
export function positiveInt(v: string | null | undefined): number | undefined {
  if (v == null || !/^\d{1,9}$/.test(v)) return undefined;
  const n = Number(v);
  return n >= 1 ? n : undefined;
}

/** page / per_page of the non-feed lists: 10 by default, at most 50. Bad values fall back to defaults. */
export function paging(q: URLSearchParams, def = 10, max = 50): { page: number; perPage: number } {
  return { page: positiveInt(q.get("page")) ?? 1, perPage: Math.min(positiveInt(q.get("per_page")) ?? def, max) };
}

/** Builds a Link header with the wanted relations; undefined when there is none. */
export function linkHeader(url: URL, page: number, last: number, rels: readonly string[]): string | undefined {
  const at = (p: number): string => {
    const u = new URL(url.href);
    u.searchParams.set("page", String(p));
    return u.href;
  };
  const parts: string[] = [];
  if (page < last) {
    if (rels.includes("next")) parts.push(`<${at(page + 1)}>; rel="next"`);
    if (rels.includes("last")) parts.push(`<${at(last)}>; rel="last"`);
  }
  if (page > 1) {
    if (rels.includes("first")) parts.push(`<${at(1)}>; rel="first"`);
    if (rels.includes("prev")) parts.push(`<${at(Math.min(page - 1, last))}>; rel="prev"`);
  }
  return parts.length > 0 ? parts.join(", ") : undefined;
}
