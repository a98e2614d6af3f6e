// deliveries.ts — signed webhook deliveries as real HTTP POSTs, with retries on failure (non-2xx or no answer).
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import type { Hook } from "./model.ts";

export const DEFAULT_RETRY_DELAYS_MS = [2000, 6000, 20000];
const TIMEOUT_MS = 10_000;

export interface Delivery { id: string; hookId: number; event: string; attempts: number; status: number | null }

export class Deliveries {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inflight = new Set<AbortController>();
  private closed = false;
  readonly log: Delivery[] = [];
  private readonly agent = `Service-Hookshot/${randomBytes(4).toString("hex").slice(0, 7)}`;

  constructor(private readonly delays: readonly number[], private readonly alive: (hook: Hook) => boolean) {}

  /** Queues a delivery of `payload` to a web hook; service hooks have no URL and are not posted. */
  send = (hook: Hook, event: string, payload: Record<string, unknown>): void => {
    const url = hook.config.url;
    if (this.closed || hook.name !== "web" || !url) return;
    const json = JSON.stringify(payload);
    const form = hook.config.content_type === "form";
    const body = form ? `payload=${encodeURIComponent(json)}` : json;
    const d: Delivery = { id: randomUUID(), hookId: hook.id, event, attempts: 0, status: null };
    this.log.push(d);
    const headers: Record<string, string> = {
      "Content-Type": form ? "application/x-www-form-urlencoded" : "application/json",
      "User-Agent": this.agent, "X-Service-Event": event, "X-Service-Delivery": d.id,
    };
    const secret = hook.config.secret;
    if (secret) headers["X-Hub-Signature"] = createHmac("sha1", secret).update(Buffer.from(body, "utf8")).digest("hex");
    void this.attempt(hook, d, url, headers, body);
  };

  private async attempt(hook: Hook, d: Delivery, url: string, headers: Record<string, string>, body: string): Promise<void> {
    if (this.closed || !this.alive(hook)) return;
    d.attempts++;
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), TIMEOUT_MS);
    this.inflight.add(ac);
    let ok = false;
    try {
      const res = await fetch(url, { method: "POST", headers, body, signal: ac.signal, redirect: "manual" });
      await res.arrayBuffer().catch(() => undefined);
      ok = res.status >= 200 && res.status < 300;
      d.status = res.status;
      hook.lastResponse = ok ? { code: res.status, status: "active", message: "OK" }
        : { code: res.status, status: "failed", message: `Invalid HTTP Response: ${res.status}` };
    } catch (e) {
      hook.lastResponse = { code: null, status: ac.signal.aborted ? "timeout" : "failed", message: ac.signal.aborted ? "Timed out" : String((e as Error).message) };
    } finally {
      clearTimeout(timer);
      this.inflight.delete(ac);
    }
    const delay = this.delays[d.attempts - 1];
    if (ok || this.closed || delay === undefined) return;
    const t = setTimeout(() => { this.timers.delete(t); void this.attempt(hook, d, url, headers, body); }, delay);
    this.timers.add(t);
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    for (const ac of this.inflight) ac.abort();
    this.timers.clear();
  }
}
