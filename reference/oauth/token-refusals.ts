/**
 * The token exchange answers every request with status 200 and an OAuth error in the format the
 * `Accept` header asks for (spec/DECISIONS.md, "Status codes of token errors"), also the ones the
 * generated routes refuse before the handler runs: a JSON body whose fields have the wrong types
 * or a form key sent twice (422 there), a body that is not valid JSON (400), in another media
 * type (415) or too large (413). A field that is not one string is read as missing, a body that
 * cannot be read as no fields, and the exchange then runs its checks in their usual order: so
 * `{"client_id": 1, …}` is `incorrect_client_credentials`, a valid client with `"code": []` is
 * `bad_verification_code`, exactly as if the field had been left out.
 */
import type { RawRequest, RequestFailure } from "../../runtime/server/types.ts";
import { decodeBody } from "../../runtime/server/body.ts";
import type { CreateAccessTokenResponse } from "../../generated/server/index.ts";
import type { Context } from "../context.ts";
import { exchangeRequest, tokenMediaType, type TokenFields } from "./token.ts";

const FIELDS = ["client_id", "client_secret", "code", "redirect_uri"] as const;
const MEDIA_TYPES = ["application/json", "application/x-www-form-urlencoded"];

/** The fields that are one string each; nothing when the body cannot be read. */
function readableFields(failure: RequestFailure, raw: RawRequest): TokenFields {
  if (failure.status !== 422) return {};
  const decoded = decodeBody(raw.request.body, raw.headers["content-type"], MEDIA_TYPES);
  if (!decoded.ok || decoded.value === null || typeof decoded.value !== "object" || Array.isArray(decoded.value)) return {};
  const body = decoded.value as Record<string, unknown>;
  const fields: TokenFields = {};
  for (const name of FIELDS) if (typeof body[name] === "string") fields[name] = body[name] as string;
  return fields;
}

export function tokenRefusal(ctx: Context) {
  return async (failure: RequestFailure, raw: RawRequest): Promise<CreateAccessTokenResponse> => {
    // Basic client authentication (client-auth.ts) is read from the header, whatever the body was.
    const answer = await exchangeRequest(ctx, readableFields(failure, raw), raw.headers.authorization);
    const extraHeaders = { "Cache-Control": "no-store", Pragma: "no-cache" };
    return { status: 200, body: answer, mediaType: tokenMediaType(raw.headers.accept), extraHeaders } as CreateAccessTokenResponse;
  };
}
