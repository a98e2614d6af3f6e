/**
 * OAUTH-UNREADABLE-002: whatever the token endpoint cannot read — a body in a media type it does
 * not take, a body that does not parse, JSON of the wrong shape — it answers with the seed's token
 * error: "The body has the fields error, error_description, error_uri; its format follows the
 * Accept header" (S-OAUTH-TOKEN-ERRORS), never the API's error bodies (`{message, …}` with a
 * 400, 415 or 422), which an OAuth client cannot read. Which error and which status are the
 * contract's: `incorrect_client_credentials`, the first check a request without readable
 * credentials fails (D-OAUTH-TOKEN-UNREADABLE), with the status of every token error
 * (D-OAUTH-TOKEN-ERROR-STATUS: 200 unless the profile declares another). No real secret is sent:
 * the requests carry a made-up one, so no report can hold the application's.
 */
import type { Case } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { nonce } from "../../core/random.ts";
import { app, mediaTypeOf, SEED } from "./support.ts";

interface Unreadable {
  what: string;
  contentType: string;
  body: string;
}

function inputs(clientId: string, secret: string): Unreadable[] {
  const form = new URLSearchParams({ client_id: clientId, client_secret: secret, code: "conformance" }).toString();
  return [
    { what: "a form sent as text/plain", contentType: "text/plain", body: form },
    { what: "an XML body", contentType: "application/xml", body: `<OAuth><client_id>${clientId}</client_id><client_secret>${secret}</client_secret></OAuth>` },
    { what: "JSON that does not parse", contentType: "application/json", body: `{"client_id": "${clientId}", "client_secret": ` },
    { what: "a JSON array", contentType: "application/json", body: JSON.stringify([clientId, secret]) },
    { what: "a JSON string", contentType: "application/json", body: JSON.stringify(form) },
    { what: "JSON fields of the wrong types", contentType: "application/json", body: JSON.stringify({ client_id: { id: clientId }, client_secret: 12345, code: true }) },
  ];
}

export const TOKEN_ERROR_BODY_CASES: Case[] = [
  {
    id: "OAUTH-UNREADABLE-002",
    title: "A token request the endpoint cannot read (another media type, unparseable, wrong shapes) gets the OAuth error body, not an API error",
    area: "oauth",
    seed: SEED.tokenErrors,
    rules: ["S-OAUTH-TOKEN-ERRORS", "D-OAUTH-TOKEN-ERROR-STATUS", "D-OAUTH-TOKEN-UNREADABLE"],
    needs: ["app"],
    async run(ctx) {
      const status = ctx.decisions.value("D-OAUTH-TOKEN-ERROR-STATUS");
      for (const input of inputs(app(ctx).clientId, `conformance-not-the-secret-${nonce()}`)) {
        const res = await ctx.http.request({ operationId: "createAccessToken", body: input.body, headers: { accept: "application/json", "content-type": input.contentType }, validate: false });
        check.ok(res.status < 500, `${input.what}: answered, not a server error`, { expected: "a token error", actual: `${res.status} ${res.text.slice(0, 160)}`, pointer: "/status" });
        check.equal(mediaTypeOf(res), "application/json", `${input.what}: the error comes in the format Accept asks for (JSON)`, "/headers/content-type");
        const body = res.json<Record<string, unknown>>();
        const fields = body !== null && typeof body === "object" && !Array.isArray(body) ? body : {};
        check.ok(typeof fields.error === "string" && fields.error.length > 0, `${input.what}: the body is the OAuth token error (error, error_description, error_uri), not another error shape`, { expected: "{error, error_description, error_uri}", actual: body, pointer: "/body/error" });
        check.ok(typeof fields.error_description === "string", `${input.what}: error_description`, { actual: body, pointer: "/body/error_description" });
        check.matches(typeof fields.error_uri === "string" ? fields.error_uri : undefined, /^https?:\/\/\S+$/, `${input.what}: error_uri is an absolute URL`, "/body/error_uri");
        check.ok(fields.access_token === undefined, `${input.what}: no token`, { actual: fields.access_token, pointer: "/body/access_token" });
        ctx.rule("D-OAUTH-TOKEN-ERROR-STATUS").status(res.status, status, `${input.what}: answered ${status}, as every token error (D-OAUTH-TOKEN-ERROR-STATUS)`);
        ctx.rule("D-OAUTH-TOKEN-UNREADABLE").equal(fields.error, "incorrect_client_credentials", `${input.what}: no credentials can be read, so incorrect_client_credentials (D-OAUTH-TOKEN-UNREADABLE)`, "/body/error");
      }
    },
  },
];
