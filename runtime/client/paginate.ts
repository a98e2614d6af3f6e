/**
 * Page iteration by `Link: <…>; rel="next"`: the service decides page boundaries, the client
 * only follows them. Pages are fetched unconditionally (no ETag), so every page is a 200 with a
 * body; a link loop or a non-200 page stops the iteration rather than spinning or skipping.
 */
import type { BaseClient } from "./base-client.ts";
import { ResponseError } from "./errors.ts";
import { parseLinkHeader } from "./link-header.ts";
import type { ApiResponse, CallOptions, RequestParts } from "./types.ts";

export async function* paginate(client: BaseClient, operationId: string, parts: RequestParts, options: CallOptions = {}): AsyncGenerator<ApiResponse> {
  const pageOptions: CallOptions = { ...options, noCache: true };
  let response = await client.call(operationId, parts, pageOptions);
  const visited = new Set<string>([response.url]);
  for (;;) {
    if (response.status !== 200) throw new ResponseError(operationId, response, true);
    yield response;
    const next = parseLinkHeader(response.rawHeaders.get("link")).next;
    if (!next) return;
    const nextUrl = new URL(next, response.url).href;
    if (visited.has(nextUrl)) return;
    visited.add(nextUrl);
    response = await client.callUrl(operationId, nextUrl, parts, pageOptions);
  }
}

export async function* paginateItems(client: BaseClient, operationId: string, parts: RequestParts, options: CallOptions = {}): AsyncGenerator<unknown> {
  for await (const page of paginate(client, operationId, parts, options)) {
    if (!Array.isArray(page.body)) throw new ResponseError(operationId, { ...page, body: page.body }, true);
    yield* page.body;
  }
}
