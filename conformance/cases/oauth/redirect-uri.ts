/**
 * OAUTH-REDIRECT-*: the redirect_uri rule (seed: Authentication › Web application flow — host
 * and port exactly the registered callback URL's, path the callback path or a subdirectory), one
 * case per accepted and rejected example of the seed plus the boundary cases a careful reviewer
 * adds: a path extending the callback's without a `/` boundary, `..` (plain, percent-encoded,
 * behind an encoded slash) climbing out of it, a host name that only begins with the callback's,
 * credentials in front of another host, another scheme, a fragment, a relative value. Every
 * variant is built from the profile's callback URL, so the cases fit any registration.
 * Accepted: the code arrives at exactly that URI. Rejected: `redirect_uri_mismatch` at the
 * registered callback with the error fields and the state. OAUTH-REDIRECT-020 goes past the
 * seed's letter (spec/DECISIONS.md, Redirect URI path tricks): subdirectory names that decode to
 * a slash, a dot segment or NUL are refused, whatever a WHATWG parser would make of them.
 * OAUTH-REDIRECT-021 reads "exactly" of host and port as written (spec/DECISIONS.md, Redirect
 * URI host and port as written): other spellings a URL parser maps onto the callback's host or
 * port (a numeric host in decimal, hex or octal, a trailing dot, fullwidth digits, a port with a
 * leading zero, one or three slashes, spaces, an empty userinfo) are refused.
 */
import type { Case, CaseDraft, CaseContext } from "../../core/types.ts";
import { withRules } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { app, callback, checkErrorRedirect, expectCode, freshState, OAUTH_NEEDS, SEED } from "./support.ts";

/** The variant's redirect_uri, or a reason it does not apply to this callback. */
type Build = (cb: URL) => string | { skip: string };

const DEFAULT_PORT: Record<string, number> = { "http:": 80, "https:": 443 };
const ELSEWHERE = "conformance-elsewhere.invalid";

function below(path: string, rest: string): string {
  return path.endsWith("/") ? `${path}${rest}` : `${path}/${rest}`;
}

/** The callback's IPv4 address as one number, or undefined for a host name or IPv6. */
function ipv4Number(host: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return m ? m.slice(1).reduce((n, part) => n * 256 + Number(part), 0) : undefined;
}

/** Spellings of the callback's scheme, host and port that a URL parser reads as the callback's, but are not written as it. */
export function hostSpellings(cb: URL): string[] {
  const port = cb.port ? `:${cb.port}` : "";
  const rest = `${cb.pathname}${cb.search}`;
  const scheme = cb.protocol.slice(0, -1);
  const out = [
    `${scheme}://${cb.hostname}.${port}${rest}`,
    `${scheme}://${cb.hostname}:0${cb.port || DEFAULT_PORT[cb.protocol] || 80}${rest}`,
    `${scheme}:/${cb.host}${rest}`,
    `${scheme}:///${cb.host}${rest}`,
    ` ${cb.href}`,
    `${cb.href} `,
    `${scheme}://:@${cb.host}${rest}`,
    `${scheme}://${cb.hostname.replace(/[0-9a-z]/, (c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0))}${port}${rest}`,
  ];
  const n = ipv4Number(cb.hostname);
  if (n !== undefined) {
    const octets = cb.hostname.split(".");
    out.push(
      `${scheme}://${n}${port}${rest}`,
      `${scheme}://0x${n.toString(16)}${port}${rest}`,
      `${scheme}://0${Number(octets[0]).toString(8)}.${octets.slice(1).join(".")}${port}${rest}`,
    );
    if (octets[1] === "0" && octets[2] === "0") out.push(`${scheme}://${octets[0]}.${octets[3]}${port}${rest}`);
  }
  return out;
}

function isIpLiteral(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith("[");
}

function accepted(id: string, title: string, build: Build, extra?: (location: URL, given: string) => void): CaseDraft {
  return {
    id,
    title,
    area: "oauth",
    seed: SEED.redirect,
    needs: OAUTH_NEEDS,
    async run(ctx: CaseContext) {
      const built = build(callback(ctx));
      if (typeof built !== "string") ctx.skip(built.skip);
      const state = freshState();
      const { location, params } = await expectCode(ctx, { redirect_uri: built, state }, built);
      checkState(params.state, state);
      extra?.(location, built);
    },
  };
}

function checkState(actual: string | undefined, sent: string): void {
  check.equal(actual, sent, "the state comes back unchanged", "/headers/location/state");
}

function rejected(id: string, title: string, build: Build): CaseDraft {
  return {
    id,
    title,
    area: "oauth",
    seed: SEED.redirect,
    needs: OAUTH_NEEDS,
    async run(ctx: CaseContext) {
      const built = build(callback(ctx));
      if (typeof built !== "string") ctx.skip(built.skip);
      ctx.note(`redirect_uri=${built}`);
      const state = freshState();
      const location = await ctx.authorize({ client_id: app(ctx).clientId, redirect_uri: built, state });
      checkErrorRedirect(ctx, location, "redirect_uri_mismatch", state);
    },
  };
}

/** The rules each case below enforces (spec/seed-rules.yaml, spec/DECISIONS.md). */
const RULES: Record<string, readonly string[]> = {
  "OAUTH-REDIRECT-002": ["S-OAUTH-REDIRECT-URI", "S-OAUTH-STATE"],
  "OAUTH-REDIRECT-003": ["S-OAUTH-REDIRECT-URI", "S-OAUTH-STATE"],
  "OAUTH-REDIRECT-004": ["S-OAUTH-REDIRECT-URI", "S-OAUTH-STATE"],
  "OAUTH-REDIRECT-005": ["S-OAUTH-REDIRECT-URI", "S-OAUTH-STATE"],
  "OAUTH-REDIRECT-006": ["S-OAUTH-REDIRECT-URI", "S-OAUTH-STATE"],
  "OAUTH-REDIRECT-007": ["S-OAUTH-REDIRECT-URI", "S-OAUTH-STATE"],
  "OAUTH-REDIRECT-008": ["S-OAUTH-REDIRECT-URI", "S-OAUTH-STATE"],
  "OAUTH-REDIRECT-009": ["S-OAUTH-REDIRECT-URI", "S-OAUTH-STATE"],
  "OAUTH-REDIRECT-010": ["S-OAUTH-REDIRECT-URI", "S-OAUTH-STATE"],
  "OAUTH-REDIRECT-011": ["S-OAUTH-REDIRECT-URI", "S-OAUTH-STATE"],
  "OAUTH-REDIRECT-012": ["S-OAUTH-REDIRECT-URI", "D-CONF-REDIRECT-URI-BOUNDARIES"],
  "OAUTH-REDIRECT-013": ["S-OAUTH-REDIRECT-URI", "D-CONF-REDIRECT-URI-BOUNDARIES"],
  // The seed compares host and port (and path); the scheme and a fragment are RFC 6749's and ours.
  "OAUTH-REDIRECT-014": ["D-CONF-REDIRECT-URI-BOUNDARIES"],
  "OAUTH-REDIRECT-015": ["S-OAUTH-REDIRECT-URI", "D-CONF-REDIRECT-URI-BOUNDARIES"],
  "OAUTH-REDIRECT-016": ["S-OAUTH-REDIRECT-URI", "D-CONF-REDIRECT-URI-BOUNDARIES"],
  "OAUTH-REDIRECT-017": ["S-OAUTH-REDIRECT-URI", "D-CONF-REDIRECT-URI-BOUNDARIES"],
  "OAUTH-REDIRECT-018": ["D-CONF-REDIRECT-URI-BOUNDARIES"],
  "OAUTH-REDIRECT-019": ["S-OAUTH-REDIRECT-URI", "D-CONF-REDIRECT-URI-BOUNDARIES"],
};

export const REDIRECT_CASES: Case[] = withRules(RULES, [
  {
    id: "OAUTH-REDIRECT-001",
    title: "Without redirect_uri the code goes to the registered callback URL",
    area: "oauth",
    seed: SEED.redirect,
    rules: ["S-OAUTH-REDIRECT-URI", "S-APP-CREDENTIALS", "S-OAUTH-AUTHORIZE"],
    needs: OAUTH_NEEDS,
    async run(ctx) {
      const state = freshState();
      const { params } = await expectCode(ctx, { state });
      checkState(params.state, state);
    },
  },
  accepted("OAUTH-REDIRECT-002", "redirect_uri equal to the callback URL is accepted", (cb) => cb.href),
  accepted("OAUTH-REDIRECT-003", "A subdirectory of the callback path (…/subdir/other) is accepted", (cb) => `${cb.origin}${below(cb.pathname, "subdir/other")}`),
  accepted(
    "OAUTH-REDIRECT-004",
    "The callback URL with its own query string is accepted and the query is kept",
    (cb) => `${cb.origin}${cb.pathname}${cb.search ? `${cb.search}&` : "?"}conformance=kept`,
    (location) => check.equal(location.searchParams.get("conformance"), "kept", "the redirect_uri's own query parameter is kept", "/headers/location/conformance"),
  ),
  rejected("OAUTH-REDIRECT-005", "A different path (/bar) is rejected", (cb) => `${cb.origin}${cb.pathname.startsWith("/bar") ? "/elsewhere" : "/bar"}`),
  rejected("OAUTH-REDIRECT-006", "The root path is rejected", (cb) => (cb.pathname === "/" ? { skip: "the registered callback is the root path itself" } : `${cb.origin}/`)),
  rejected("OAUTH-REDIRECT-007", "A path extending the callback path without a / boundary (…/callbackx) is rejected", (cb) => {
    if (cb.pathname === "/") return { skip: "the registered callback is the root path: every path is below it" };
    return `${cb.origin}${cb.pathname.endsWith("/") ? `${cb.pathname.slice(0, -1)}x/` : `${cb.pathname}x`}`;
  }),
  rejected("OAUTH-REDIRECT-008", "A different port is rejected", (cb) => {
    const port = Number(cb.port || DEFAULT_PORT[cb.protocol] || 80) + 1;
    return `${cb.protocol}//${cb.hostname}:${port}${cb.pathname}`;
  }),
  rejected("OAUTH-REDIRECT-009", "The scheme's default port instead of the callback's explicit port is rejected", (cb) =>
    cb.port === "" ? { skip: "the registered callback uses its scheme's default port" } : `${cb.protocol}//${cb.hostname}${cb.pathname}`,
  ),
  rejected("OAUTH-REDIRECT-010", "A different subdomain is rejected", (cb) =>
    isIpLiteral(cb.hostname) ? { skip: `the registered callback's host ${cb.hostname} is an IP address: it has no subdomains` } : `${cb.protocol}//conformance.${cb.host}${cb.pathname}`,
  ),
  rejected("OAUTH-REDIRECT-011", "A different domain is rejected", (cb) => `${cb.protocol}//${ELSEWHERE}${cb.port ? `:${cb.port}` : ""}${cb.pathname}`),
  rejected("OAUTH-REDIRECT-012", "A host name that only begins with the callback's host is rejected", (cb) =>
    cb.hostname.startsWith("[") ? { skip: "the registered callback's host is an IPv6 literal" } : `${cb.protocol}//${cb.hostname}.${ELSEWHERE}${cb.port ? `:${cb.port}` : ""}${cb.pathname}`,
  ),
  rejected("OAUTH-REDIRECT-013", "The callback's host and port as credentials in front of another host (…@elsewhere) are rejected", (cb) => `${cb.protocol}//${cb.host}@${ELSEWHERE}${cb.pathname}`),
  rejected("OAUTH-REDIRECT-014", "A different scheme (https for http, or the reverse) is rejected", (cb) => `${cb.protocol === "https:" ? "http:" : "https:"}//${cb.host}${cb.pathname}`),
  rejected("OAUTH-REDIRECT-015", "A .. segment climbing out of the callback path is rejected", (cb) => `${cb.origin}${below(cb.pathname, "../conformance-elsewhere")}`),
  rejected("OAUTH-REDIRECT-016", "A percent-encoded .. (%2e%2e) climbing out of the callback path is rejected", (cb) => `${cb.origin}${below(cb.pathname, "%2e%2e/conformance-elsewhere")}`),
  rejected("OAUTH-REDIRECT-017", "Encoded slashes with .. (%2F..%2F) after the callback path are rejected", (cb) => {
    if (cb.pathname === "/") return { skip: "the registered callback is the root path" };
    return `${cb.origin}${cb.pathname.replace(/\/$/, "")}%2F..%2Fconformance-elsewhere`;
  }),
  rejected("OAUTH-REDIRECT-018", "A redirect_uri with a fragment is rejected (RFC 6749 §3.1.2)", (cb) => `${cb.origin}${cb.pathname}#conformance`),
  rejected("OAUTH-REDIRECT-019", "A relative redirect_uri (the callback path alone) is rejected", (cb) => cb.pathname),
  {
    id: "OAUTH-REDIRECT-020",
    title: "Subdirectories hiding an encoded slash, backslash, NUL or a dot segment (…/..%2Fx, …/%2e%2e/x, …/%00, …/sub/../x) are rejected",
    area: "oauth",
    seed: `${SEED.redirect}; spec/DECISIONS.md › Redirect URI path tricks`,
    rules: ["D-OAUTH-REDIRECT-TRICKS"],
    needs: OAUTH_NEEDS,
    async run(ctx: CaseContext) {
      const cb = callback(ctx);
      const variants = [
        "..%2Fconformance-elsewhere",
        "..%5Cconformance-elsewhere",
        "%2e%2e/conformance-elsewhere",
        "%252e%252e%252Fconformance-elsewhere",
        "%00",
        "sub/../conformance-other",
        "./conformance-other",
      ];
      for (const rest of variants) {
        const built = `${cb.origin}${below(cb.pathname, rest)}`;
        ctx.note(`redirect_uri=${built}`);
        const state = freshState();
        const location = await ctx.authorize({ client_id: app(ctx).clientId, redirect_uri: built, state });
        checkErrorRedirect(ctx, location, "redirect_uri_mismatch", state);
      }
    },
  },
  {
    id: "OAUTH-REDIRECT-021",
    title: "Other spellings of the callback's host and port (2130706433, 0x7f000001, a trailing dot, :0port, http:/, http:///, spaces, :@, fullwidth) are rejected",
    area: "oauth",
    // Every spelling here names the callback's host and port to a URL parser: refusing them is
    // the contract's reading of "exactly", not the seed's letter.
    rules: ["D-OAUTH-REDIRECT-SPELLINGS"],
    seed: `${SEED.redirect}; spec/DECISIONS.md › Redirect URI host and port as written`,
    needs: OAUTH_NEEDS,
    async run(ctx: CaseContext) {
      for (const built of hostSpellings(callback(ctx))) {
        ctx.note(`redirect_uri=${JSON.stringify(built)}`);
        const state = freshState();
        const location = await ctx.authorize({ client_id: app(ctx).clientId, redirect_uri: built, state });
        checkErrorRedirect(ctx, location, "redirect_uri_mismatch", state);
      }
    },
  },
]);
