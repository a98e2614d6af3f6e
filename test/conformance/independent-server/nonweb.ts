/**
 * The independent server's non-web flow (seed: a token created with Basic authentication, a body
 * with add_scopes and note, two-factor handled where enabled): `POST /authorizations` answers 201
 * without a Location; a two-factor user is asked for a TOTP code with `X-Service-OTP: required;
 * app`, each code taken once; list, read, edit and revoke beside it.
 */
import { createHmac } from "node:crypto";
import type { State, Token, User } from "./state.ts";
import { bodyOf, problem, same, type Answer, type Req } from "./http.ts";
import { iso } from "./shapes.ts";
import { normalize } from "./oauth.ts";

function base32(secret: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of secret.replace(/=+$/, "").toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** RFC 6238, SHA-1, six digits, 30 seconds. */
export function totp(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", base32(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

export class NonWeb {
  constructor(
    private readonly s: State,
    private readonly base: () => string,
  ) {}

  private view(t: Token, showToken: boolean): Record<string, unknown> {
    const at = iso(new Date());
    return { id: t.authorizationId, url: `${this.base()}/authorizations/${t.authorizationId}`, token: showToken ? t.value : "", note: t.note ?? null, scopes: t.scopes, app: { name: t.note ?? "token", client_id: "none", url: `${this.base()}/authorizations` }, created_at: at, updated_at: at };
  }

  /** Two-factor: a right, unused code in X-Service-OTP; undefined when it may go on. */
  private secondFactor(req: Req, user: User): Answer | undefined {
    if (!user.totp) return undefined;
    const code = req.header("x-service-otp");
    if (!code) return problem(401, "otp_required", "A two-factor code is needed", { "x-service-otp": "required; app" });
    const step = Math.floor(Date.now() / 30_000);
    const used = this.s.usedOtp.get(user.id) ?? new Set<string>();
    // The current step's code only (this server allows no clock drift), and each code once.
    const ok = same(totp(user.totp!, step), code) && !used.has(code);
    if (!ok) return problem(401, "otp_refused", "That two-factor code is not taken", { "x-service-otp": "required; app" });
    used.add(code);
    this.s.usedOtp.set(user.id, used);
    return undefined;
  }

  handle(req: Req): Answer | undefined {
    const m = /^\/authorizations(?:\/([^/]+))?$/.exec(req.path);
    if (!m) return undefined;
    if (!req.basic || !req.user) return problem(401, "basic_required", "Sign in with Basic authentication", { "www-authenticate": 'Basic realm="indie"' });
    const user = req.user;
    const mine = [...this.s.tokens.values()].filter((t) => t.userId === user.id && t.authorizationId !== undefined);
    if (m[1] === undefined) {
      if (req.method === "GET") {
        const pages = req.url.searchParams.getAll("page");
        const page = pages[0] ?? null;
        if (pages.length > 1 || (page !== null && !/^[1-9][0-9]{0,5}$/.test(page))) return problem(422, "bad_page", "page is a whole number from 1");
        return { status: 200, json: page === null || page === "1" ? mine.map((t) => this.view(t, false)) : [] };
      }
      if (req.method !== "POST") return problem(405, "method_not_allowed", "GET or POST here");
      const challenge = this.secondFactor(req, user);
      if (challenge) return challenge;
      const body = bodyOf(req);
      if (!body) return problem(400, "unreadable", "The body is not a JSON object");
      const list = (v: unknown) => (Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as string[]) : undefined);
      const scopes = list(body.scopes ?? body.add_scopes ?? []);
      if (!scopes) return problem(422, "invalid", "scopes is a list of scope names");
      if (body.note !== undefined && (typeof body.note !== "string" || body.note.includes("\u0000") || body.note.length > 1000)) return problem(422, "invalid", "note is a text without NUL, at most 1000 characters");
      const token = this.s.newToken(user.id, normalize(scopes), { authorizationId: this.s.nextAuthorization(), ...(typeof body.note === "string" ? { note: body.note } : {}) });
      return { status: 201, json: this.view(token, true) };
    }
    const token = mine.find((t) => String(t.authorizationId) === m[1]);
    if (!token) return problem(404, "not_found", "No such authorization");
    if (req.method === "GET") return { status: 200, json: this.view(token, false) };
    if (req.method === "DELETE") {
      this.s.tokens.delete(token.value);
      return { status: 204 };
    }
    if (req.method === "PATCH") {
      const body = bodyOf(req) ?? {};
      const list = (v: unknown) => (Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as string[]) : []);
      if (body.scopes !== undefined) token.scopes = normalize(list(body.scopes));
      if (body.add_scopes !== undefined) token.scopes = normalize([...token.scopes, ...list(body.add_scopes)]);
      if (body.remove_scopes !== undefined) token.scopes = token.scopes.filter((x) => !list(body.remove_scopes).includes(x));
      if (typeof body.note === "string") token.note = body.note;
      return { status: 200, json: this.view(token, false) };
    }
    return problem(405, "method_not_allowed", "GET, PATCH or DELETE here");
  }
}
