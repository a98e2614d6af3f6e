/**
 * Broken variants for the two checks issue 40 gave back their cases (cases/oauth/revocation-checks.ts):
 * each a defect the suite caught while its clean-up made the request, and missed once the clean-up
 * moved to the seed's means. Made on the wire by the fault proxy, as in variants.ts.
 */
import type { Profile } from "../../../conformance/core/profile.ts";
import { header, type Exchange } from "./proxy.ts";
import type { Variant } from "./variants.ts";

const GRANT = /^\/applications\/[^/]+\/grants\/[^/]+$/;
const AUTHORIZATION = /^\/authorizations\/\d+$/;

function pathOf(ex: Exchange): string {
  return ex.url.split("?")[0]!;
}

function basicOf(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`;
}

export const ISSUE_40_VARIANTS: Variant[] = [
  {
    name: "grant-revocation-does-nothing",
    rule: "D-NONWEB-APP-TOKENS",
    class: "path-never-taken",
    only: "OAUTH-APPS-003",
    fails: ["OAUTH-APPS-003"],
    // DELETE /applications/:client_id/grants/:access_token answers 204 and revokes nothing.
    fault: () => ({
      request(side, req) {
        if (side === "api" && req.method === "DELETE" && GRANT.test(pathOf(req))) return { status: 204, headers: {}, body: Buffer.alloc(0) };
      },
    }),
  },
  {
    name: "authorization-by-id-alone",
    rule: "D-NONWEB-AUTHORIZATIONS",
    class: "path-never-taken",
    only: "OAUTH-NONWEB-007",
    fails: ["OAUTH-NONWEB-007"],
    // GET /authorizations/:id serves the authorization whoever owns it: the proxy asks as its
    // owner (users[1], the only other user the suite signs in as), as a server that looks it up
    // by id alone would answer.
    fault: (profile: Profile) => {
      const [main, other] = profile.users;
      const mine = main?.password ? basicOf(main.login, main.password) : undefined;
      const theirs = other?.password ? basicOf(other.login, other.password) : undefined;
      return {
        request(side, req) {
          if (side !== "api" || req.method !== "GET" || !AUTHORIZATION.test(pathOf(req)) || !mine || !theirs) return;
          if (header(req.headers, "authorization") === mine) req.headers = { ...req.headers, authorization: theirs };
        },
      };
    },
  },
];
