/**
 * Token lookups remembered in process. Resolving a token is two queries (the authorization by
 * its digest, then its user), which on PGlite's one thread cost more than serving a cached feed
 * page; pollers present the same token every minute. Entries are keyed by the token's SHA-256
 * digest (the plaintext is not kept) and hold for the current tokens version
 * (store/tokens-version.ts), which every revoke, reset, re-scope and delete bumps, so a revoked
 * token is refused on its very next request. Unknown tokens are not remembered (a stream of made-
 * up tokens must not fill memory). On PostgreSQL another instance may revoke a token, so the
 * cache is off there and each request reads the database.
 *
 * A settled hit is also available at once (`cached`), so the API hooks can resolve a known
 * token without a promise.
 */
import type { Database } from "../db/database.ts";
import { sha256Hex } from "../auth/secrets.ts";
import { tokensVersion } from "../store/tokens-version.ts";
import { viewerForToken, type Viewer } from "./viewer.ts";

const MAX_ENTRIES = 10_000;

interface Entry {
  version: number;
  viewer: Promise<Viewer | undefined>;
  /** The viewer once the lookup found one. */
  settled: Viewer | undefined;
}

export class ViewerCache {
  private readonly entries = new Map<string, Entry>();
  /**
   * The digest taken for a request, by the request: the poll lane looks a token up before
   * Fastify's hooks look it up again for the same request (a first poll goes through both), and
   * one SHA-256 a request is enough. Held as long as the request is.
   */
  private readonly digests = new WeakMap<object, { token: string; digest: string }>();

  constructor(private readonly db: Database) {}

  /** The token's digest; `request` (the IncomingMessage it came on) lets a second look reuse it. */
  private digestOf(token: string, request: object | undefined): string {
    const known = request === undefined ? undefined : this.digests.get(request);
    if (known !== undefined && known.token === token) return known.digest;
    const digest = sha256Hex(token);
    if (request !== undefined) this.digests.set(request, { token, digest });
    return digest;
  }

  /** The viewer of a token whose lookup has already settled under the current version, else undefined. */
  cached(token: string, request?: object): Viewer | undefined {
    if (this.db.kind === "postgres") return undefined;
    return this.settled(this.digestOf(token, request));
  }

  /**
   * The same by the token's digest (`digest`), for the poll lane, which answers most requests
   * itself: it takes the digest without remembering it (a WeakMap entry per request cost about
   * as much as the SHA-256) and hands it on (`passOn`) only with a request it leaves to the hooks.
   */
  cachedByDigest(digest: string): Viewer | undefined {
    return this.db.kind === "postgres" ? undefined : this.settled(digest);
  }

  /** The token's digest, as the cache keys it. */
  digest(token: string): string {
    return sha256Hex(token);
  }

  /** Remember `digest` (of `token`) for `request`, which goes on to the hooks. */
  passOn(request: object, token: string, digest: string): void {
    this.digests.set(request, { token, digest });
  }

  private settled(digest: string): Viewer | undefined {
    const hit = this.entries.get(digest);
    return hit && hit.version === tokensVersion() ? hit.settled : undefined;
  }

  lookup(token: string, request?: object): Promise<Viewer | undefined> {
    if (this.db.kind === "postgres") return viewerForToken(this.db, token);
    const key = this.digestOf(token, request);
    const version = tokensVersion();
    const hit = this.entries.get(key);
    if (hit && hit.version === version) return hit.viewer;
    const viewer = viewerForToken(this.db, token);
    const entry: Entry = { version, viewer, settled: undefined };
    this.entries.delete(key);
    this.entries.set(key, entry);
    // Oldest first: Map keeps insertion order, and a refreshed entry was re-inserted above.
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    viewer.then(
      (found) => (found === undefined ? this.forget(key, viewer) : (entry.settled = found)),
      () => this.forget(key, viewer),
    );
    return viewer;
  }

  private forget(key: string, viewer: Promise<Viewer | undefined>): void {
    if (this.entries.get(key)?.viewer === viewer) this.entries.delete(key);
  }
}
