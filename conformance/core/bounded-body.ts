/**
 * An answer's body read with a byte limit. The target is untrusted (DESIGN.md): a body of a
 * gigabyte, an endless chunked body, or a small gzip answer that inflates to gigabytes must not
 * take the suite's memory with it. The bytes are counted as they stream, after fetch has undone
 * the Content-Encoding, so the limit bounds decompression too: past it, the body is cancelled
 * (the decompressor and the socket stop) and ResponseTooLarge is thrown.
 */

/** What one answer may weigh, decoded, unless the run says otherwise (--max-response-bytes). */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export class ResponseTooLarge extends Error {
  override name = "ResponseTooLarge";
  constructor(
    readonly limit: number,
    /** The first bytes of the body, for the failure's excerpt. */
    readonly head: string,
  ) {
    super(`the answer's body is larger than ${sizeText(limit)}`);
  }
}

/** The bytes of `body` (a fetch body, an undici or node:http stream), or ResponseTooLarge past `limit`. */
export async function readBounded(body: AsyncIterable<Uint8Array> | null | undefined, limit: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop early (the throw) calls the iterator's return(), which cancels the stream.
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) {
      const head = Buffer.concat(chunks.length > 0 ? chunks : [chunk]).subarray(0, 200).toString("utf8");
      throw new ResponseTooLarge(limit, head);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** The body as text, as Response.text() decodes it (UTF-8, a BOM dropped), within `limit` bytes. */
export async function readBoundedText(body: AsyncIterable<Uint8Array> | null | undefined, limit: number): Promise<string> {
  return new TextDecoder().decode(await readBounded(body, limit));
}

/** 8 MB, 512 KB, 300 bytes: the limit as a reader says it. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}
