// deliverer.ts — webhook deliveries as real HTTP POSTs: Service-Hookshot user agent, X-Service-* headers,
// X-Hub-Signature (sha256 HMAC of the exact body bytes), a 10 s timeout and retries after configurable delays.
import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { randomHex } from "./util.ts";

export interface Target { url: string; secret?: string; contentType?: string; insecure: boolean; hookId: number }
export interface DeliveryRecord { id: string; hookId: number; event: string; attempts: number; status: number | null; done: boolean }

export class Deliverer {
  readonly records: DeliveryRecord[] = [];
  private seq = 0;
  private closed = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly live = new Set<http.ClientRequest>();
  private readonly agent = `Service-Hookshot/${randomHex(4).slice(0, 7)}`;

  constructor(private readonly delays: readonly number[], private readonly timeoutMs = 10_000) {}

  /** Queues a delivery and returns its id (the same id on every retry). */
  send(t: Target, event: string, payload: unknown): string {
    const id = `d-${++this.seq}-${randomHex(4)}`;
    const json = JSON.stringify(payload);
    const form = t.contentType === "form";
    const body = Buffer.from(form ? `payload=${encodeURIComponent(json)}` : json, "utf8");
    const headers: Record<string, string> = {
      "Content-Type": form ? "application/x-www-form-urlencoded" : "application/json",
      "Content-Length": String(body.length),
      "User-Agent": this.agent,
      "X-Service-Event": event,
      "X-Service-Delivery": id,
    };
    if (t.secret) headers["X-Hub-Signature"] = `sha256=${createHmac("sha256", t.secret).update(body).digest("hex")}`;
    const rec: DeliveryRecord = { id, hookId: t.hookId, event, attempts: 0, status: null, done: false };
    this.records.push(rec);
    this.attempt(t, headers, body, rec);
    return id;
  }

  private attempt(t: Target, headers: Record<string, string>, body: Buffer, rec: DeliveryRecord): void {
    if (this.closed) return;
    rec.attempts++;
    void this.post(t, headers, body).then((status) => {
      rec.status = status;
      const delay = this.delays[rec.attempts - 1];
      if ((status !== null && status >= 200 && status < 300) || delay === undefined || this.closed) {
        rec.done = true;
        return;
      }
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.attempt(t, headers, body, rec);
      }, delay);
      this.timers.add(timer);
    });
  }

  private post(t: Target, headers: Record<string, string>, body: Buffer): Promise<number | null> {
    return new Promise((resolve) => {
      let url: URL;
      try { url = new URL(t.url); } catch { resolve(null); return; }
      if (url.protocol !== "http:" && url.protocol !== "https:") { resolve(null); return; }
      let settled = false;
      const finish = (s: number | null): void => {
        if (settled) return;
        settled = true;
        this.live.delete(req);
        resolve(s);
      };
      const options: https.RequestOptions = { method: "POST", headers, agent: false, rejectUnauthorized: !t.insecure };
      const req = (url.protocol === "https:" ? https : http).request(url, options, (res) => {
        res.resume();
        res.on("error", () => undefined);
        finish(res.statusCode ?? null);
      });
      this.live.add(req);
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error("timeout")));
      req.on("error", () => finish(null));
      req.end(body);
    });
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const r of this.live) r.destroy();
    this.live.clear();
  }
}
