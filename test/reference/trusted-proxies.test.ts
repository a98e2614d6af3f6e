/**
 * `trustProxy` (serve --trust-proxy) on the embedded database, where the poll lane answers
 * repeated polls before Fastify: an anonymous caller named by a trusted proxy's X-Forwarded-For
 * is counted as that client — on a 200 and on the 304 of a repeated poll alike, which the lane
 * leaves to Fastify since only Fastify works the address out — while a request without the
 * header is the connecting address's, and the lane still answers it. And the list's validation.
 */
import { describe, expect, it } from "vitest";
import { parseTrustedProxies, TrustedProxyError } from "../../reference/http/trusted-proxies.ts";
import { useServer } from "./harness.ts";

describe("a server that trusts loopback proxies", () => {
  const t = useServer({ trustProxy: ["loopback"] });

  const poll = async (headers: Record<string, string>) => {
    const res = await fetch(`${t.api}/events`, { headers });
    await res.arrayBuffer();
    return { status: res.status, etag: res.headers.get("etag")!, remaining: Number(res.headers.get("x-ratelimit-remaining")) };
  };

  it("counts a forwarded anonymous client as itself, on its 200s and its 304s", async () => {
    const forwarded = { "x-forwarded-for": "198.51.100.7" };
    const first = await poll(forwarded);
    expect([first.status, first.remaining]).toEqual([200, 59]);
    const second = await poll({ "x-forwarded-for": "198.51.100.8" });
    expect([second.status, second.remaining]).toEqual([200, 59]);
    const lane = t.server.lane.answered;
    const again = await poll({ ...forwarded, "if-none-match": first.etag });
    expect([again.status, again.remaining]).toEqual([304, 59]);
    expect(t.server.lane.answered).toBe(lane);
    // Without the header the caller is the connecting address, whose repeated polls the lane
    // answers: the page (served to anonymous callers above), counted for that address, and the 304.
    const direct = await poll({});
    expect([direct.status, direct.remaining]).toEqual([200, 59]);
    expect(t.server.lane.answered).toBe(lane + 1);
    const repeated = await poll({ "if-none-match": direct.etag });
    expect([repeated.status, repeated.remaining]).toEqual([304, 59]);
    expect(t.server.lane.answered).toBe(lane + 2);
  });
});

describe("parseTrustedProxies", () => {
  it.each([
    ["127.0.0.1", ["127.0.0.1"]],
    [" 10.0.0.0/8 , ::1, loopback,fd00::/8", ["10.0.0.0/8", "::1", "loopback", "fd00::/8"]],
  ])("takes %j", (value, expected) => {
    expect(parseTrustedProxies("--trust-proxy", value)).toEqual(expected);
  });

  it.each(["", " , ", "proxy.internal", "10.0.0.0/33", "::1/129", "10.0.0.1/8/8", "10.0.0.0/x", "true"])("refuses %j", (value) => {
    expect(() => parseTrustedProxies("--trust-proxy", value)).toThrow(TrustedProxyError);
  });
});
