// router.ts — a tiny method + path-pattern router; `:name` segments become params.
import type { Reply } from "./http.ts";

export type Params = Record<string, string>;
export type Handler<C> = (c: C, p: Params) => Reply | Promise<Reply>;
interface Route<C> { method: string; parts: string[]; handler: Handler<C> }

export class Router<C> {
  private readonly routes: Route<C>[] = [];

  on(method: string, pattern: string, handler: Handler<C>): this {
    this.routes.push({ method, parts: pattern.split("/").filter((s) => s !== ""), handler });
    return this;
  }

  match(method: string, path: string): { handler: Handler<C>; params: Params } | null {
    let segs: string[];
    try { segs = path.split("/").filter((s) => s !== "").map((s) => decodeURIComponent(s)); } catch { return null; }
    for (const r of this.routes) {
      if (r.method !== method || r.parts.length !== segs.length) continue;
      const params: Params = {};
      const ok = r.parts.every((p, i) => {
        const s = segs[i] ?? "";
        if (p.startsWith(":")) { params[p.slice(1)] = s; return true; }
        return p === s;
      });
      if (ok) return { handler: r.handler, params };
    }
    return null;
  }
}
