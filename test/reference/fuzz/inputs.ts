/**
 * The bad-input classes the fuzz sends, as plain lists: the systematic pass sends every one to
 * every operation it applies to, and the random pass draws from the same lists. Each entry is a
 * way a client (or an attacker) has been seen to get a request wrong.
 */
import type { FuzzBodySent } from "./exchange.ts";
import { basicHeader, type FuzzContext } from "./credentials.ts";

/** The server's body limit is 1 MiB: one byte more is too large. */
const OVER_LIMIT = 1024 * 1024 + 1;
const tooLargeJson = `[${"1,".repeat(OVER_LIMIT / 2)}1]`;

/** Path values: malformed escapes, too long, NUL, overlong UTF-8, an encoded slash. */
export const BAD_STRING_SEGMENTS = ["%zz", "%E0%A4%A", "a".repeat(2100), "%00", "%c0%ae", "%2F"];
/** …and, for integer parameters, numbers not written in decimal, out of range or not whole. */
export const BAD_INTEGER_SEGMENTS = ["%zz", "9".repeat(2100), "%00", "0x10", "-1", "0", "1e309", "99999999999999999999", "1.5"];

/** Values of a declared query parameter. */
export const BAD_QUERY_VALUES = ["abc", "0", "-1", "11", "", "1.5", "0x10", "%00", "1e309", "%zz", "9".repeat(3000)];
/** Whole query strings with parameters no operation (or not this one) declares. */
export const UNKNOWN_QUERIES = ["x=%00", "x=a&x=b", "page=%00&page=1", "%zz=1", `${"q".repeat(3000)}=1`];

export function authVariants(ctx: FuzzContext): { kind: string; headers: Record<string, string>; query?: string }[] {
  return [
    { kind: "no credentials", headers: {} },
    { kind: "unknown token", headers: { authorization: "token not-a-real-token-0000000000" } },
    { kind: "Bearer token", headers: { authorization: `Bearer ${ctx.token}` } },
    { kind: "empty token", headers: { authorization: "token " } },
    { kind: "unknown scheme", headers: { authorization: "Digest username=octocat" } },
    { kind: "user Basic", headers: { authorization: ctx.basic } },
    { kind: "wrong password", headers: { authorization: basicHeader("hubot", "not-the-password") } },
    { kind: "malformed Basic", headers: { authorization: "Basic !!!not-base64" } },
    { kind: "client Basic", headers: { authorization: ctx.client } },
    { kind: "access_token query", headers: {}, query: `access_token=${ctx.token}` },
    { kind: "bad access_token query", headers: {}, query: "access_token=%00" },
  ];
}

/** Request headers: too large in all, and odd values of the ones some operations declare. */
export const HEADER_VARIANTS: { kind: string; headers: Record<string, string> }[] = [
  { kind: "headers too large", headers: { "if-none-match": `"${"a".repeat(20_000)}"` } },
  { kind: "empty X-Service-OTP", headers: { "x-service-otp": "" } },
  { kind: "garbage If-None-Match", headers: { "if-none-match": "W/ not a tag, *" } },
  { kind: "Accept XML", headers: { accept: "application/xml" } },
  { kind: "Content-Type without a body", headers: { "content-type": "application/json" } },
];

/** Bodies whose media type, encoding or size is wrong, or whose JSON is no object at all. */
export const BAD_BODIES: { kind: string; body: FuzzBodySent }[] = [
  { kind: "text/plain", body: { type: "text/plain", data: "hello" } },
  { kind: "XML", body: { type: "application/xml", data: "<a/>" } },
  { kind: "form", body: { type: "application/x-www-form-urlencoded", data: "client_id=a&client_id=b&code=c" } },
  { kind: "multipart", body: { type: "multipart/form-data; boundary=x", data: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n' } },
  { kind: "octet-stream", body: { type: "application/octet-stream", data: Buffer.from([0, 1, 2, 255]) } },
  { kind: "vendor JSON", body: { type: "application/vnd.service.v3+json", data: "{}" } },
  { kind: "JSON in UTF-16", body: { type: "application/json; charset=utf-16", data: "{}" } },
  { kind: "malformed Content-Type (no subtype)", body: { type: "text", data: "{}" } },
  { kind: "malformed Content-Type (two slashes)", body: { type: "a/b/c", data: "{}" } },
  { kind: "empty Content-Type", body: { type: "", data: "{}" } },
  { kind: "no Content-Type", body: { data: "{}" } },
  { kind: "empty JSON body", body: { type: "application/json", data: "" } },
  { kind: "JSON null", body: { type: "application/json", data: "null" } },
  { kind: "JSON array", body: { type: "application/json", data: "[]" } },
  { kind: "JSON string", body: { type: "application/json", data: '"s"' } },
  { kind: "JSON number", body: { type: "application/json", data: "1e400" } },
  { kind: "JSON true", body: { type: "application/json", data: "true" } },
  { kind: "malformed JSON", body: { type: "application/json", data: "{nope" } },
  { kind: "invalid UTF-8", body: { type: "application/json", data: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) } },
  { kind: "byte order mark", body: { type: "application/json", data: "\ufeff{}" } },
  { kind: "__proto__ key", body: { type: "application/json", data: '{"__proto__":{"admin":true}}' } },
  { kind: "NUL in a value", body: { type: "application/json", data: '{"name":"\\u0000","note":"\\u0000"}' } },
  { kind: "lone surrogate key", body: { type: "application/json", data: '{"\\ud800":1}' } },
  { kind: "deeply nested", body: { type: "application/json", data: `${"[".repeat(5000)}${"]".repeat(5000)}` } },
  { kind: "too large", body: { type: "text/plain", data: tooLargeJson } },
  { kind: "too large, chunked", body: { type: "application/json", data: tooLargeJson, chunked: true } },
];

/** Values of every JSON type (and a few that break storage or size), for each body property. */
export const PROPERTY_VALUES: unknown[] = [null, -1, 1.5, "", true, [], {}, "\u0000", "x".repeat(70_000)];
