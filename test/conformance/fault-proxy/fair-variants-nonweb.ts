/**
 * Fair variants of issue 22's cases: a target that makes a choice the seed allows, other than the
 * contract's, with the profile declaring it (`decisions`). Through the fault proxy each must pass
 * the selected cases (or have them skipped as switched off) — the suite holds a target to the
 * seed, not to the contract's choices it declares it made otherwise.
 */
import type { Profile } from "../../../conformance/core/profile.ts";
import type { DecisionSetting } from "../../../conformance/core/decisions.ts";
import { header, type Exchange, type Fault } from "./proxy.ts";

export interface FairVariant {
  name: string;
  /** What the target chose, and why the seed allows it. */
  choice: string;
  decisions: Record<string, DecisionSetting>;
  only: string;
  fault(profile: Profile): Fault;
}

function pathOf(ex: Exchange): string {
  return ex.url.split("?")[0]!;
}

export const FAIR_VARIANTS_NONWEB: FairVariant[] = [
  {
    name: "no-get-or-create",
    choice: "no PUT /authorizations/clients/:client_id[/:fingerprint] (404), the application endpoints all there (the seed shows no token-creation interface at all); issue 40: the one missing PUT was read as \"no application-token API\"",
    decisions: { "D-REF-NONWEB-GET-CREATE": "off" },
    only: "OAUTH-APPS-001,OAUTH-APPS-002",
    fault: () => ({
      request(side, req) {
        if (side !== "api" || req.method !== "PUT" || !pathOf(req).startsWith("/authorizations/clients/")) return;
        const reset = String(Math.floor(Date.now() / 1000) + 3600);
        return { status: 404, headers: { "content-type": "application/json; charset=utf-8", "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "4999", "x-ratelimit-reset": reset }, body: Buffer.from(JSON.stringify({ message: "Not Found", documentation_url: "https://docs.example/rest" })) };
      },
    }),
  },
  {
    name: "service-hook-second-create-refused",
    choice: "a second create of an installed service is refused with 422 instead of updating it (the seed: one service hook per integrator per repository — either way there is one)",
    decisions: { "D-REF-HOOKS-SERVICE-CATALOG": "off" },
    only: "HOOKS-SERVICE-001",
    fault: (profile) => {
      const installed = new Set<number>();
      const hooks = `/repos/${profile.serviceHook?.repo}/hooks`;
      const service = profile.serviceHook?.name;
      return {
        request(side, req) {
          if (side !== "api" || req.method !== "POST" || pathOf(req) !== hooks || installed.size === 0) return;
          const body = JSON.parse(req.body.toString("utf8")) as { name?: string };
          if (body.name !== service) return;
          const refusal = { message: "Validation Failed", errors: [{ resource: "Hook", code: "already_exists", field: "name", message: `${service} is already installed on this repository.` }], documentation_url: "https://docs.example/rest" };
          return { status: 422, headers: { "content-type": "application/json; charset=utf-8" }, body: Buffer.from(JSON.stringify(refusal)) };
        },
        response(side, req, res) {
          if (side !== "api" || !(header(res.headers, "content-type") ?? "").includes("json")) return;
          const path = pathOf(req);
          if (req.method === "POST" && path === hooks && res.status === 201) {
            const hook = JSON.parse(res.body.toString("utf8")) as { id: number; name: string };
            if (hook.name === service) installed.add(hook.id);
          }
        },
      };
    },
  },
  {
    name: "token-errors-400",
    choice: "token errors, unreadable requests included, answered 400 with the OAuth error body (the seed: status codes of the token errors are not shown)",
    decisions: { "D-OAUTH-TOKEN-ERROR-STATUS": 400 },
    only: "OAUTH-UNREADABLE-001",
    fault: () => ({
      response(side, req, res) {
        if (side !== "auth" || pathOf(req) !== "/login/oauth/access_token" || res.status !== 200) return;
        if (/"error"\s*:|(^|&)error=|<error>/.test(res.body.toString("utf8"))) res.status = 400;
      },
    }),
  },
];
