/**
 * The cases of issue 22 — the non-web flow (OAUTH-NONWEB-*), the application endpoints
 * (OAUTH-APPS-*), the review page (OAUTH-REVIEW-*), unreadable token requests and unknown scopes,
 * service hooks (HOOKS-SERVICE-*, HOOKS-NAME-*), delivery detail, POST …/tests, organization-hook
 * tokens and a malformed % escape — run by the real runner against one reference server: with
 * the reference profile every one passes; with the profile fields they need left out each is
 * skipped naming the field to fill in; with the decisions they check switched off the cases
 * skip or check only what the seed says. That each fails when its rule breaks is
 * test/conformance/broken-variants.test.ts (the variants of issue 22's block).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Case, CaseResult, RunSummary } from "../../conformance/core/types.ts";
import type { Profile } from "../../conformance/core/profile.ts";
import { NONWEB_CASES } from "../../conformance/cases/oauth/nonweb.ts";
import { APP_TOKEN_CASES } from "../../conformance/cases/oauth/app-tokens.ts";
import { TOKEN_READ_CASES } from "../../conformance/cases/oauth/token-unreadable.ts";
import { REVIEW_CASES } from "../../conformance/cases/oauth/review-page.ts";
import { SERVICE_HOOK_CASES } from "../../conformance/cases/hooks/service-hooks.ts";
import { DELIVERY_DETAIL_CASES } from "../../conformance/cases/hooks/deliveries-detail.ts";
import { TESTS_ENDPOINT_CASES } from "../../conformance/cases/hooks/tests-endpoint.ts";
import { ORG_TOKEN_CASES } from "../../conformance/cases/hooks/org-tokens.ts";
import { ESCAPE_CASES } from "../../conformance/cases/contract/malformed-escape.ts";
import { ALL_CASES } from "../../conformance/cases/index.ts";
import { allRules } from "../../conformance/rules/load.ts";
import { checkProfile } from "../../conformance/run/load-profile.ts";
import { unmetNeed } from "../../conformance/run/needs.ts";
import { runSuite } from "../../conformance/run/runner.ts";
import { startReferenceTarget, type ReferenceTarget } from "../../conformance/reference-profile.ts";
import { ceiling } from "../ceilings.ts";

const CASES: Case[] = [...NONWEB_CASES, ...APP_TOKEN_CASES, ...TOKEN_READ_CASES, ...REVIEW_CASES, ...SERVICE_HOOK_CASES, ...DELIVERY_DETAIL_CASES, ...TESTS_ENDPOINT_CASES, ...ORG_TOKEN_CASES, ...ESCAPE_CASES];
const RUN_TIMEOUT_MS = ceiling(90_000);

function explain(r: CaseResult | undefined): string {
  return JSON.stringify(r && { id: r.id, status: r.status, reason: r.reason, failure: r.failure, notes: r.notes }, null, 2);
}

function byId(summary: RunSummary): Record<string, CaseResult> {
  return Object.fromEntries(summary.results.map((r) => [r.id, r]));
}

describe("the issue 22 cases: the table", () => {
  it("are registered once each, with well-formed IDs, a seed section and known rules, the seed's first", () => {
    const registered = new Map(ALL_CASES.map((c) => [c.id, c]));
    const known = new Set(allRules().map((r) => r.id));
    expect(CASES.length).toBe(20);
    for (const c of CASES) {
      expect(registered.get(c.id), c.id).toBe(c);
      expect(c.id).toMatch(/^(OAUTH|HOOKS|CONTRACT)-[A-Z]+(-[A-Z]+)*-\d{3}$/);
      expect(c.title).not.toMatch(/\n/);
      expect(c.seed.length).toBeGreaterThan(0);
      expect(c.rules?.length, c.id).toBeGreaterThan(0);
      for (const rule of c.rules!) expect(known.has(rule), `${c.id}: ${rule}`).toBe(true);
      // A plain check counts against the first rule: where a case checks a seed rule, that is it.
      const seedAt = c.rules!.findIndex((r) => r.startsWith("S-"));
      if (seedAt >= 0) expect(seedAt, c.id).toBe(0);
    }
  });

  it("the seed's three features each have a case naming their rule", () => {
    const naming = (rule: string) => CASES.filter((c) => c.rules?.includes(rule)).map((c) => c.id);
    expect(naming("S-NON-WEB-FLOW")).toEqual(["OAUTH-NONWEB-001", "OAUTH-NONWEB-002"]);
    expect(naming("S-SERVICE-HOOKS")).toEqual(["HOOKS-SERVICE-001", "HOOKS-SERVICE-002"]);
    expect(naming("S-OAUTH-REVIEW-LINK")).toEqual(["OAUTH-REVIEW-002"]);
  });
});

describe("the profile fields they need", () => {
  const base: Profile = { users: [{ login: "a", password: "p", token: "t" }], repos: { public: "a/b" } };

  it("are in the profile schema", () => {
    const profile = checkProfile({
      ...base,
      otherApp: { clientId: "other", clientSecret: "secret" },
      twoFactor: { login: "mona", password: "pw", totpSecret: "JBSWY3DPEHPK3PXP", digits: 6, period: 30, algorithm: "SHA1" },
      serviceHook: { repo: "a/b", name: "travis", config: { user: "u", domain: "ci.example" } },
    });
    expect(profile.twoFactor?.totpSecret).toBe("JBSWY3DPEHPK3PXP");
    expect(() => checkProfile({ ...base, twoFactor: { login: "mona", password: "pw", totpSecret: "not base32!" } })).toThrow(/totpSecret/);
    expect(() => checkProfile({ ...base, serviceHook: { repo: "a/b", name: "web", config: {} } })).toThrow(/serviceHook/);
    expect(() => checkProfile({ ...base, otherApp: { clientId: "other" } })).toThrow(/otherApp/);
  });

  it.each([
    ["two-factor", "profile has no two-factor user (twoFactor: login, password, totpSecret)"],
    ["other-app", "profile has no second application (otherApp: clientId, clientSecret)"],
    ["service-hook", "profile has no service hook to install (serviceHook: repo, name, config)"],
    ["basic", "profile has no password for users[0] (the non-web flow authenticates with Basic)"],
  ] as const)("%s: unmet, the case is skipped with “%s”", (need, reason) => {
    expect(unmetNeed([need], { users: [{ login: "a", token: "t" }] }, {})).toBe(reason);
  });
});

describe("the issue 22 cases against the reference server", () => {
  let target: ReferenceTarget;
  let full: Record<string, CaseResult>;

  beforeAll(async () => {
    target = await startReferenceTarget({ history: false });
    const summary = await runSuite({ baseUrl: target.server.urls.api, authUrl: target.server.urls.auth, profile: target.profile, cases: CASES });
    full = byId(summary);
  }, RUN_TIMEOUT_MS);

  afterAll(async () => {
    await target?.close();
  });

  for (const c of CASES) {
    it(`${c.id} passes`, () => {
      expect(full[c.id]?.status, explain(full[c.id])).toBe("passed");
    });
  }

  it(
    "without the profile's new fields, their cases are skipped naming the field",
    async () => {
      const { otherApp: _o, serviceHook: _s, twoFactor: _t, ...rest } = target.profile;
      const summary = byId(await runSuite({ baseUrl: target.server.urls.api, authUrl: target.server.urls.auth, profile: rest, cases: CASES.filter((c) => /^(OAUTH-NONWEB-002|OAUTH-APPS-002|HOOKS-SERVICE-00[12])$/.test(c.id)) }));
      expect(summary["OAUTH-NONWEB-002"]?.reason).toMatch(/twoFactor/);
      expect(summary["OAUTH-APPS-002"]?.reason).toMatch(/otherApp/);
      expect(summary["HOOKS-SERVICE-001"]?.reason).toMatch(/serviceHook/);
      expect(summary["HOOKS-SERVICE-002"]?.reason).toMatch(/serviceHook/);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "with the contract's two-factor choices off, OAUTH-NONWEB-002 checks (and passes) what the seed says: no token without a right code",
    async () => {
      const profile: Profile = { ...target.profile, decisions: { "D-NONWEB-TWO-FACTOR": "off", "D-REF-NONWEB-TWO-FACTOR-CODES": "off" } };
      const summary = byId(await runSuite({ baseUrl: target.server.urls.api, authUrl: target.server.urls.auth, profile, cases: CASES.filter((c) => c.id === "OAUTH-NONWEB-002") }));
      expect(summary["OAUTH-NONWEB-002"]?.status, explain(summary["OAUTH-NONWEB-002"])).toBe("passed");
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "a two-factor login locked by earlier runs is a skip saying so, not a seed failure — before the case starts or while it runs",
    async () => {
      // A server of its own, its two-factor user brought to the edge of the reference's lockout
      // (ten failed logins an hour, D-REF-NONWEB-FAILED-LOGINS) the way repeated runs bring it:
      // nine wrong passwords, so this run's own wrong password is the tenth.
      const own = await startReferenceTarget({ history: false });
      try {
        const { login, password } = own.profile.twoFactor!;
        const wrong = `Basic ${Buffer.from(`${login}:${password}-wrong`).toString("base64")}`;
        for (let i = 0; i < 9; i++) await (await fetch(`${own.server.urls.api}/authorizations`, { headers: { authorization: wrong } })).arrayBuffer();
        const run = async () => (await runSuite({ baseUrl: own.server.urls.api, authUrl: own.server.urls.auth, profile: own.profile, cases: CASES.filter((c) => c.id === "OAUTH-NONWEB-002") })).results[0]!;
        const during = await run();
        expect(during.status, explain(during)).toBe("skipped");
        expect(during.reason).toMatch(/^not checked: once this run sent a wrong code, the target refuses monalisa's right password with 403 \(.*Maximum number of login attempts exceeded.*\) — a lockout of failed logins/);
        const before = await run();
        expect(before.status, explain(before)).toBe("skipped");
        expect(before.reason).toMatch(/^not checked: before this run tried a wrong attempt, the target refuses monalisa's right password with 403/);
      } finally {
        await own.close();
      }
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "with the authorizations API switched off, the cases built on it say they do not check it; the seed's own non-web cases still run",
    async () => {
      // A server of its own: OAUTH-NONWEB-002 spends up to three of the two-factor user's failed
      // logins a run (a wrong password, a wrong code, a code an earlier run used), and the runs
      // above on the shared server would leave the reference's ten an hour nearly spent.
      const own = await startReferenceTarget({ history: false });
      const profile: Profile = { ...own.profile, decisions: { "D-NONWEB-AUTHORIZATIONS": "off" } };
      const summary = byId(await runSuite({ baseUrl: own.server.urls.api, authUrl: own.server.urls.auth, profile, cases: CASES.filter((c) => /^(OAUTH-NONWEB-00[12345]|OAUTH-APPS-001)$/.test(c.id)) }).finally(() => own.close()));
      for (const id of ["OAUTH-NONWEB-003", "OAUTH-NONWEB-004", "OAUTH-NONWEB-005", "OAUTH-APPS-001"]) {
        expect(summary[id]?.status, explain(summary[id])).toBe("skipped");
        expect(summary[id]?.reason).toMatch(/not checked/);
      }
      // A token made with Basic, and two-factor handled: the seed's, checked wherever the token is made.
      for (const id of ["OAUTH-NONWEB-001", "OAUTH-NONWEB-002"]) {
        expect(summary[id]?.status, explain(summary[id])).toBe("passed");
        expect(summary[id]?.notes.join("\n")).toMatch(/D-NONWEB-AUTHORIZATIONS is switched off: the seed's part is checked at POST \/authorizations/);
      }
    },
    RUN_TIMEOUT_MS,
  );
});
