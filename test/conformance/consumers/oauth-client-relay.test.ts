/**
 * The OAuth-client suite's authorization server relays token requests and keeps what the client
 * was answered (conformance/consumers/oauth-client/token-relay.ts), over real HTTP with the
 * reference behind its proxy, no browser: each token request is recorded with its client (body
 * or HTTP Basic) and its answer read in the format asked for; an error answer gets the status the
 * client's profile gives token errors (400 here, 200 — the reference's — for a client whose
 * profile says nothing), its body unchanged. The profile takes 200 or a 4xx there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../cli/free-port.ts";
import { checkClientProfile, startAuthorizationServer, type AuthorizationServer, type ClientProfile } from "../../../conformance/consumers/oauth-client/index.ts";
import { ceiling } from "../../ceilings.ts";

let server: AuthorizationServer;
const profile = (clientId: string, extra: Partial<ClientProfile> = {}): ClientProfile => ({
  startUrl: "http://127.0.0.1:9/login",
  callbackUrl: "http://127.0.0.1:9/callback",
  clientId,
  clientSecret: `${clientId}-secret`,
  authUrl: server?.urls.auth ?? "",
  success: { url: "/welcome" },
  ...extra,
});

beforeAll(async () => {
  const authUrl = `http://127.0.0.1:${await freePort()}`;
  server = await startAuthorizationServer({ ...profile("rfc-client", { tokenErrorStatus: 400 }), authUrl });
  await server.register(profile("github-style-client"));
}, ceiling(60_000));
afterAll(async () => server?.close());

async function exchange(headers: Record<string, string>, form: Record<string, string>) {
  const res = await fetch(`${server.urls.auth}/login/oauth/access_token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form), signal: AbortSignal.timeout(10_000) });
  return { status: res.status, text: await res.text(), recorded: server.tokenRequests.at(-1)! };
}

describe("the suite's authorization server relays token answers", () => {
  it("answers a token error with the status the client's profile gives it (HTTP Basic names the client), the body unchanged, and records it", async () => {
    const basic = `Basic ${Buffer.from("rfc-client:rfc-client-secret").toString("base64")}`;
    const r = await exchange({ accept: "application/json", authorization: basic }, { code: "0".repeat(40) });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toMatchObject({ error: "bad_verification_code" });
    expect(r.recorded).toMatchObject({ clientId: "rfc-client", answer: { status: 400, mediaType: "application/json", fields: { error: "bad_verification_code" } } });
  });

  it("keeps the reference's 200 for a client whose profile says nothing, and reads XML answers", async () => {
    const r = await exchange({ accept: "application/xml" }, { client_id: "github-style-client", client_secret: "github-style-client-secret", code: "0".repeat(40) });
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/<OAuth>[\s\S]*<error>bad_verification_code<\/error>/);
    expect(r.recorded).toMatchObject({ clientId: "github-style-client", answer: { status: 200, mediaType: "application/xml", fields: { error: "bad_verification_code" } } });
  });

  it("reads a form answer, the default without Accept", async () => {
    const r = await exchange({}, { client_id: "github-style-client", client_secret: "wrong", code: "0".repeat(40) });
    expect(r.status).toBe(200);
    expect(r.recorded.answer).toMatchObject({ mediaType: "application/x-www-form-urlencoded", fields: { error: "incorrect_client_credentials" } });
  });
});

describe("the profile's tokenErrorStatus", () => {
  it("is 200 or a 4xx", () => {
    const base = { ...profile("c"), authUrl: "http://127.0.0.1:9" };
    for (const ok of [200, 400, 401]) expect(checkClientProfile({ ...base, tokenErrorStatus: ok }).tokenErrorStatus).toBe(ok);
    for (const bad of [201, 302, 500, "400"]) expect(() => checkClientProfile({ ...base, tokenErrorStatus: bad })).toThrow(/tokenErrorStatus/);
  });
});

describe("the relay reads an upstream's answer within the suite's byte limit", () => {
  it("refuses a token answer over 8 MB instead of holding it all", async () => {
    const { createServer } = await import("node:http");
    const { relayToken } = await import("../../../conformance/consumers/oauth-client/token-relay.ts");
    const { ResponseTooLarge } = await import("../../../conformance/core/bounded-body.ts");
    // An upstream streaming 9 MB of JSON, no Content-Length.
    const upstream = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const more = () => {
        while (sent < 9 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end();
      };
      more();
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = upstream.address() as { port: number };
      const record = { at: Date.now(), accept: "application/json", contentType: "application/x-www-form-urlencoded", fields: { code: "x" } };
      await expect(relayToken(new URL(`http://127.0.0.1:${port}/login/oauth/access_token`), { "content-type": "application/x-www-form-urlencoded" }, Buffer.from("code=x"), record, { spendFirst: () => false, errorStatus: () => 200 })).rejects.toBeInstanceOf(ResponseTooLarge);
    } finally {
      upstream.closeAllConnections();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });
});
