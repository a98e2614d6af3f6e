/**
 * How the suite's recording proxy relays the client's token requests (authorization-server.ts
 * forwards everything else byte for byte). A token answer is what the client's sign-in rests on,
 * so the suite keeps both halves: the request the client sent and the answer it got — status and
 * fields, read the way the answer's Content-Type says — and the cases judge the client against
 * that answer, never against its page alone (a client that shows "signed in" after an error body
 * is caught). Two things the relay steers:
 *
 * - the status of a token error: the reference answers errors 200 (D-OAUTH-TOKEN-ERROR-STATUS);
 *   a client built for RFC 6749 §5.2's 400 says so in its profile (`tokenErrorStatus`) and its
 *   error answers are relayed with that status, body unchanged;
 * - spending a code first (OAUTH-CLIENT-CODE-001): the suite cannot make a valid exchange of its
 *   own when the client uses PKCE (only the client knows the code_verifier), so it holds the
 *   client's token request, sends a copy of it — the client's credentials and verifier — first,
 *   and then relays the client's request, which now presents a spent code.
 */
import type { IncomingHttpHeaders } from "node:http";
import { XMLParser } from "fast-xml-parser";
import { request } from "undici";
import { DEFAULT_MAX_RESPONSE_BYTES, readBounded } from "../../core/bounded-body.ts";

export interface TokenAnswer {
  status: number;
  mediaType: string;
  fields: Record<string, string>;
}

export interface TokenRequest {
  at: number;
  accept: string;
  contentType: string;
  fields: Record<string, string>;
  /** The client, from the body's client_id or the HTTP Basic user name. */
  clientId?: string;
  /** What the client was answered (after the profile's error status), once it was. */
  answer?: TokenAnswer;
  /** The answer to the suite's copy of this request, sent first to spend the code. */
  spentFirst?: TokenAnswer;
}

const xml = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true, ignoreDeclaration: true });

/** The answer's fields by its media type: JSON, XML (root `OAuth`) or a form. */
export function answerFields(mediaType: string, text: string): Record<string, string> {
  const strings = (value: unknown): Record<string, string> =>
    value && typeof value === "object" ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])) : {};
  try {
    if (mediaType.includes("json")) return strings(JSON.parse(text));
    if (mediaType.includes("xml")) {
      const doc = xml.parse(text) as Record<string, unknown>;
      const roots = Object.keys(doc);
      return roots.length === 1 ? strings(doc[roots[0]!]) : {};
    }
  } catch {
    return {};
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/** Whether the answer carries a token: a 2xx with an access_token. */
export function gotToken(answer: TokenAnswer | undefined): boolean {
  return answer !== undefined && answer.status >= 200 && answer.status < 300 && !answer.fields.error && (answer.fields.access_token ?? "") !== "";
}

/** "200 {error: bad_verification_code}", "200 with a token", for failure messages (no token values). */
export function describeAnswer(answer: TokenAnswer | undefined): string {
  if (!answer) return "nothing (no answer was relayed)";
  if (answer.fields.error) return `${answer.status} {error: ${answer.fields.error}}`;
  if (gotToken(answer)) return `${answer.status} with a token`;
  return `${answer.status} ${answer.mediaType || "(no Content-Type)"} without a token (fields: ${Object.keys(answer.fields).join(", ") || "none"})`;
}

/** The client named by the request: the body's client_id, else HTTP Basic's user name (RFC 6749 §2.3.1). */
export function clientIdOf(headers: IncomingHttpHeaders, fields: Record<string, string>): string | undefined {
  if (fields.client_id) return fields.client_id;
  const basic = /^Basic\s+(\S+)$/i.exec(String(headers.authorization ?? ""))?.[1];
  if (!basic) return undefined;
  const user = Buffer.from(basic, "base64").toString("utf8").split(":")[0] ?? "";
  try {
    return decodeURIComponent(user.replace(/\+/g, " "));
  } catch {
    return user;
  }
}

export interface RelayOptions {
  /** The status the client's profile gives token errors (200 or a 4xx). */
  errorStatus(clientId: string | undefined): number;
  /** Whether the suite spends this code before the client's request (once). */
  spendFirst(code: string | undefined): boolean;
}

export interface Relayed {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

async function send(target: URL, headers: IncomingHttpHeaders, body: Buffer): Promise<{ relayed: Relayed; answer: TokenAnswer }> {
  const res = await request(target, { method: "POST", headers, body });
  // The upstream is the suite's own reference, but a token answer has no business being large: bounded like any answer.
  const bytes = await readBounded(res.body, DEFAULT_MAX_RESPONSE_BYTES);
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !["connection", "keep-alive", "transfer-encoding"].includes(k)) out[k] = v;
  const mediaType = String(res.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  return { relayed: { status: res.statusCode, headers: out, body: bytes }, answer: { status: res.statusCode, mediaType, fields: answerFields(mediaType, bytes.toString("utf8")) } };
}

/** Relays one token request (already recorded in `record`), filling in its answer(s). */
export async function relayToken(target: URL, headers: IncomingHttpHeaders, body: Buffer, record: TokenRequest, options: RelayOptions): Promise<Relayed> {
  if (options.spendFirst(record.fields.code)) record.spentFirst = (await send(target, headers, body)).answer;
  const { relayed, answer } = await send(target, headers, body);
  // The reference answers errors 200; a client built for another status is answered with it.
  const status = options.errorStatus(record.clientId);
  if (answer.fields.error && answer.status === 200 && status !== 200) {
    relayed.status = status;
    answer.status = status;
  }
  record.answer = answer;
  return relayed;
}
