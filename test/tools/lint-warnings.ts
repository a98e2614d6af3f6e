/**
 * The warnings Spectral (test/tools/spectral.test.ts) and Redocly (redocly.test.ts) may give on
 * the contract, counted from the document itself: each kind is one the linter's configuration
 * explains (test/tools/spectral.yaml, spec/redocly.yaml), and a kind not listed here — or more
 * of a kind than the document accounts for — fails those tests.
 */

type Json = Record<string, unknown>;

/** Every `$ref` string in the document; `skip` leaves out the values of the keys it names. */
function refs(node: unknown, skip: (key: string) => boolean, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => refs(n, skip, out));
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") out.add(value);
      else if (!skip(key)) refs(value, skip, out);
    }
  }
  return out;
}

/** The components nothing refers to (security schemes are referred to by name, not `$ref`). */
export function unusedComponents(doc: Json, skip: (key: string) => boolean = () => false): string[] {
  const used = refs(doc, skip);
  const components = (doc.components ?? {}) as Record<string, Json>;
  return Object.entries(components)
    .filter(([type]) => type !== "securitySchemes")
    .flatMap(([type, map]) => Object.keys(map).map((name) => `#/components/${type}/${name}`))
    .filter((pointer) => !used.has(pointer));
}

/**
 * The scopes listed for a scheme that is not OAuth 2 in an operation's security requirement
 * (`token: [repo]`: the scope the token must carry). OpenAPI 3.1 allows them ("role names");
 * Spectral's oas3-operation-security-defined reads every listed scope as an OAuth scope.
 */
export function scopesOnTokenSchemes(doc: Json): number {
  const schemes = ((doc.components as Json | undefined)?.securitySchemes ?? {}) as Record<string, { type: string }>;
  const items = [...Object.values((doc.paths ?? {}) as Record<string, Json>), ...Object.values((doc.webhooks ?? doc["x-webhooks"] ?? {}) as Record<string, Json>)];
  let count = 0;
  for (const item of items) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== "object" || Array.isArray(op)) continue;
      const security = ((op as Json).security ?? doc.security ?? []) as Record<string, string[]>[];
      for (const requirement of security) {
        for (const [name, scopes] of Object.entries(requirement)) if (!["oauth2", "openIdConnect"].includes(schemes[name]?.type ?? "")) count += scopes.length;
      }
    }
  }
  return count;
}

/** Warnings by kind, sorted by kind, zero counts left out. */
export function byKind(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0).sort(([a], [b]) => a.localeCompare(b)));
}

/** What Spectral (spectral:oas, test/tools/spectral.yaml) warns about in `doc`, by kind. */
export function spectralWarnings(doc: Json): Record<string, number> {
  return byKind({
    "info-contact": doc.info && !(doc.info as Json).contact ? 1 : 0,
    "oas3-operation-security-defined": scopesOnTokenSchemes(doc),
    // Spectral counts a `$ref` anywhere, in an extension too (x-location-query names OauthAuthorizeError).
    "oas3-unused-component": unusedComponents(doc).length,
  });
}

/** Members of an `allOf` that are empty (`{}`), and members equal to an earlier one, anywhere in `doc`. */
export function idleAllOfMembers(node: unknown): number {
  if (Array.isArray(node)) return node.reduce((n: number, v) => n + idleAllOfMembers(v), 0);
  if (!node || typeof node !== "object") return 0;
  let count = 0;
  for (const [key, value] of Object.entries(node)) {
    if (key === "allOf" && Array.isArray(value)) {
      const seen: string[] = [];
      for (const member of value) {
        const text = JSON.stringify(member);
        if (text === "{}") count++;
        if (seen.includes(text)) count++;
        seen.push(text);
      }
    }
    count += idleAllOfMembers(value);
  }
  return count;
}

/** What Redocly (recommended with spec/redocly.yaml) warns about in `doc`, by kind. */
export function redoclyWarnings(doc: Json): Record<string, number> {
  const license = ((doc.info as Json | undefined)?.license ?? {}) as Json;
  return byKind({
    // A 3.0 license can name no SPDX `identifier`, only a `url`.
    "info-license-strict": !license.url && !license.identifier ? 1 : 0,
    // Only the 3.0 edition has them: an `if`/`then` it cannot say is dropped, leaving `{}`.
    "no-illogical-composition-keywords": idleAllOfMembers(doc),
    // Redocly follows no `$ref` in an extension but x-webhooks (3.0's webhooks).
    "no-unused-components": unusedComponents(doc, (key) => key.startsWith("x-") && key !== "x-webhooks").length,
  });
}
