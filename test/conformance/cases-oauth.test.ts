/**
 * The OAuth cases (conformance/cases/oauth) against the reference server: every case passes,
 * except those whose need the demo profile cannot meet (a subdomain of an IP-address callback).
 * Then the proof that the cases can fail: small fake web hosts with one defect each — a
 * redirect_uri check by plain string prefix, state dropped, no scope normalization — must fail
 * exactly the cases written for them.
 */
import { describe, expect, it } from "vitest";
import { CASES } from "../../conformance/cases/oauth/index.ts";
import { explain, runCase, useConformanceTarget, type HarnessResult, type Target } from "./case-harness.ts";
import { fakeOAuth, startFake, type FakeOAuthOptions } from "./fake-targets.ts";
import { authorizeWithForm } from "../../conformance/authorize/form.ts";
import { extractForms, formData } from "../../conformance/authorize/html-forms.ts";
import { HttpClient } from "../../conformance/core/http.ts";
import { SkipCase } from "../../conformance/core/failure.ts";

const SKIPPED: Record<string, RegExp> = {
  "OAUTH-REDIRECT-010": /IP address/,
};

describe("the HTML form extractor", () => {
  const page = `<!DOCTYPE html><html><body>
<!-- <form action="/commented-out"><input name="x"></form> -->
<form method="post" action="/session?next=%2Fa&amp;b=1">
  <input type="hidden" name="csrf_token" value="a&amp;b&quot;c&#39;d&#x41;">
  <input type=text name=login value="">
  <input type="password" name="password">
  <input type="checkbox" name="remember" value="yes">
  <input type="checkbox" name="checked" checked>
  <input type="text" name="off" value="1" disabled>
  <textarea name="note">line one
&lt;two&gt;</textarea>
  <select name="pick"><option value="a">A</option><option value="b" selected>B</option></select>
  <button type="submit" class="primary">Sign <b>in</b></button>
</form>
<form action='/decision' method='POST'>
  <input type='hidden' name='client_id' value='c1'>
  <button type="submit" name="decision" value="deny">Deny</button>
  <button name="decision" value="authorize">Authorize App</button>
  <button type="button" name="noop">Not a submit</button>
</form>
<script>document.write('<form action="/scripted"></form>')</script>
</body></html>`;

  it("reads action, method, fields (entities decoded) and submit buttons, and skips comments and scripts", () => {
    const forms = extractForms(page);
    expect(forms.map((f) => [f.action, f.method])).toEqual([
      ["/session?next=%2Fa&b=1", "POST"],
      ["/decision", "POST"],
    ]);
    const [login, consent] = forms;
    expect(formData(login!, { login: "octocat", password: "pw" })).toEqual({
      csrf_token: `a&b"c'dA`,
      login: "octocat",
      password: "pw",
      checked: "on",
      note: "line one\n<two>",
      pick: "b",
    });
    expect(login!.buttons).toEqual([{ name: undefined, value: "", text: "Sign in" }]);
    expect(consent!.buttons.map((b) => `${b.name}=${b.value} (${b.text})`)).toEqual(["decision=deny (Deny)", "decision=authorize (Authorize App)"]);
    expect(formData(consent!, {}, consent!.buttons[1])).toEqual({ client_id: "c1", decision: "authorize" });
  });
});

describe("OAuth cases: the table", () => {
  it("has unique, well-formed IDs, one-line titles and seed sections", () => {
    const ids = CASES.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of CASES) {
      expect(c.id).toMatch(/^OAUTH-[A-Z]+-\d{3}$/);
      expect(c.area).toBe("oauth");
      expect(c.title).not.toMatch(/\n/);
      expect(c.seed.length).toBeGreaterThan(0);
    }
  });
});

describe("OAuth cases against the reference server", () => {
  const target = useConformanceTarget();

  describe("the plain-HTTP form driver", () => {
    const query = () => ({ client_id: target.target.profile.app!.clientId, scope: "gist", state: "driver-state" });

    it("finds the buttons by their text when the profile names none, for approve and deny", async () => {
      const profile = { ...target.target.profile, authorize: { driver: "form" as const } };
      const approved = await authorizeWithForm(profile, target.t.auth, query());
      expect(approved.searchParams.get("code")).toMatch(/^[0-9a-f]{40}$/);
      const denied = await authorizeWithForm(profile, target.t.auth, query(), { decision: "deny" });
      expect(Object.fromEntries(denied.searchParams)).toMatchObject({ error: "access_denied", state: "driver-state" });
    });

    it("reports a failed sign-in, and keeps the password out of the recorded exchanges", async () => {
      const http = new HttpClient(target.t.api, target.t.auth);
      const profile = { ...target.target.profile, users: [{ login: "octocat", password: "not-the-password" }] };
      await expect(authorizeWithForm(profile, target.t.auth, query(), { http })).rejects.toMatchObject({ name: "CaseFailure", message: /signing in as octocat failed/ });
      const posts = http.exchanges.filter((e) => e.method === "POST");
      expect(posts).toHaveLength(1);
      expect(posts[0]!.requestBody).toContain("password=***");
      expect(JSON.stringify(http.exchanges)).not.toContain("not-the-password");
    });

    it("skips rather than guesses: no password, or a deny with only an approve button configured", async () => {
      const base = target.target.profile;
      await expect(authorizeWithForm({ ...base, users: [{ login: "octocat" }] }, target.t.auth, query())).rejects.toBeInstanceOf(SkipCase);
      const approveOnly = { ...base, authorize: { driver: "form" as const, consent: { approve: "decision=authorize" } } };
      await expect(authorizeWithForm(approveOnly, target.t.auth, query(), { decision: "deny" })).rejects.toBeInstanceOf(SkipCase);
    });
  });

  for (const c of CASES) {
    it(`${c.id} ${c.title}`, async () => {
      const result = await target.run(c);
      if (SKIPPED[c.id]) {
        expect(result.status, explain(result)).toBe("skipped");
        expect(result.reason).toMatch(SKIPPED[c.id]!);
      } else expect(result.status, explain(result)).toBe("passed");
    });
  }
});

const APP = { clientId: "fake-client", clientSecret: "fake-secret", callbackUrl: "http://127.0.0.1:8080/callback" };

/** Runs `ids` against a fake web host (and API host) built with `options`; returns status per id. */
async function againstFake(options: Partial<FakeOAuthOptions>, ids: string[], profileExtra: Partial<Target["profile"]> = {}) {
  const fake = fakeOAuth({ ...APP, ...options });
  const [auth, api] = await Promise.all([startFake(fake.auth), startFake(fake.api)]);
  try {
    const target: Target = {
      baseUrl: api.url,
      authUrl: auth.url,
      profile: { users: [{ login: "octocat", password: "unused", token: "unused" }], app: APP, authorize: { driver: "form" }, ...profileExtra },
    };
    const out: Record<string, HarnessResult> = {};
    for (const id of ids) out[id] = await runCase(CASES.find((c) => c.id === id)!, target);
    return out;
  } finally {
    await Promise.all([auth.close(), api.close()]);
  }
}

function statuses(results: Record<string, HarnessResult>): Record<string, string> {
  return Object.fromEntries(Object.entries(results).map(([id, r]) => [id, r.status]));
}

const REDIRECT_IDS = CASES.filter((c) => c.id.startsWith("OAUTH-REDIRECT-")).map((c) => c.id);

/** Every redirect case passes except `failing` (and the subdomain case, skipped for an IP callback). */
function expectRedirectOutcome(results: Record<string, HarnessResult>, failing: string[]): void {
  const expected = Object.fromEntries(REDIRECT_IDS.map((id) => [id, failing.includes(id) ? "failed" : id === "OAUTH-REDIRECT-010" ? "skipped" : "passed"]));
  expect(statuses(results)).toEqual(expected);
}

describe("OAuth cases catch defects (fake web hosts)", () => {
  it("a fake with the correct redirect_uri rule passes every redirect case (the fakes are sound)", async () => {
    expectRedirectOutcome(await againstFake({}, REDIRECT_IDS), []);
  });

  it("a redirect_uri check by plain string prefix (no / boundary) fails the boundary cases", async () => {
    const results = await againstFake({ acceptRedirect: (given, callback) => given.startsWith(callback) }, REDIRECT_IDS);
    expectRedirectOutcome(results, ["OAUTH-REDIRECT-007", "OAUTH-REDIRECT-015", "OAUTH-REDIRECT-016", "OAUTH-REDIRECT-017", "OAUTH-REDIRECT-018", "OAUTH-REDIRECT-020", "OAUTH-REDIRECT-021"]);
    const failure = results["OAUTH-REDIRECT-007"]!.failure!;
    expect(failure.message).toMatch(/redirect_uri_mismatch/);
    expect(failure.actual).toBeUndefined(); // no error parameter: the code went to …/callbackx
    expect(failure.curl).toMatch(/redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A8080%2Fcallbackx/);
  });

  it("a check of the host alone (port and scheme ignored) fails the port and scheme cases", async () => {
    const hostOnly = (given: string, callback: string) => {
      try {
        const g = new URL(given);
        const c = new URL(callback);
        return !given.includes("#") && g.hostname === c.hostname && (g.pathname === c.pathname || g.pathname.startsWith(`${c.pathname}/`));
      } catch {
        return false;
      }
    };
    expectRedirectOutcome(await againstFake({ acceptRedirect: hostOnly }, REDIRECT_IDS), ["OAUTH-REDIRECT-008", "OAUTH-REDIRECT-009", "OAUTH-REDIRECT-014", "OAUTH-REDIRECT-020", "OAUTH-REDIRECT-021"]);
  });

  it("an exact-match-only check fails the accepted subdirectory and query cases", async () => {
    expectRedirectOutcome(await againstFake({ acceptRedirect: (given, callback) => given === callback }, REDIRECT_IDS), ["OAUTH-REDIRECT-003", "OAUTH-REDIRECT-004"]);
  });

  const PKCE_IDS = CASES.filter((c) => c.id.startsWith("OAUTH-PKCE-")).map((c) => c.id);

  it("a fake with PKCE passes the PKCE cases; one that ignores PKCE fails all but the first; pkce: false in the profile skips them", async () => {
    expect(PKCE_IDS).toEqual(["OAUTH-PKCE-001", "OAUTH-PKCE-002", "OAUTH-PKCE-003", "OAUTH-PKCE-004"]);
    expect(Object.values(statuses(await againstFake({}, PKCE_IDS)))).toEqual(["passed", "passed", "passed", "passed"]);
    const ignoring = await againstFake({ pkce: false }, PKCE_IDS);
    expect(statuses(ignoring)).toEqual({ "OAUTH-PKCE-001": "passed", "OAUTH-PKCE-002": "failed", "OAUTH-PKCE-003": "failed", "OAUTH-PKCE-004": "failed" });
    expect(ignoring["OAUTH-PKCE-002"]!.failure!.message).toMatch(/no code_verifier.*bad_verification_code/);
    const skipped = await againstFake({ pkce: false }, PKCE_IDS, { pkce: false });
    for (const r of Object.values(skipped)) expect(r).toMatchObject({ status: "skipped", reason: expect.stringMatching(/no PKCE/) });
  });

  it("a state put into the Location with encodeURI fails the state cases", async () => {
    const results = await againstFake({ encodeState: false }, ["OAUTH-STATE-001", "OAUTH-STATE-002", "OAUTH-STATE-003"]);
    expect(statuses(results)).toEqual({ "OAUTH-STATE-001": "failed", "OAUTH-STATE-002": "failed", "OAUTH-STATE-003": "passed" });
    expect(results["OAUTH-STATE-001"]!.failure!.message).toMatch(/state comes back unchanged/);
  });

  it("an unknown client_id redirected to its redirect_uri fails OAUTH-ERROR-002", async () => {
    const results = await againstFake({ redirectUnknownClient: true }, ["OAUTH-ERROR-002"]);
    expect(results["OAUTH-ERROR-002"]!.status).toBe("failed");
    expect(results["OAUTH-ERROR-002"]!.failure!.message).toMatch(/unknown client_id/);
  });

  it("errors sent to the given redirect_uri instead of the registered callback fail OAUTH-ERROR-001", async () => {
    const results = await againstFake({ errorsToGivenRedirect: true }, ["OAUTH-ERROR-001"]);
    expect(results["OAUTH-ERROR-001"]!.status).toBe("failed");
    expect(results["OAUTH-ERROR-001"]!.failure!.message).toMatch(/registered callback/);
  });

  it("scopes stored as requested (no normalization) fail the normalization cases", async () => {
    const results = await againstFake({ normalizeScopes: false }, ["OAUTH-SCOPE-001", "OAUTH-SCOPE-002", "OAUTH-SCOPE-003", "OAUTH-SCOPE-005"]);
    expect(statuses(results)).toEqual({ "OAUTH-SCOPE-001": "failed", "OAUTH-SCOPE-002": "failed", "OAUTH-SCOPE-003": "passed", "OAUTH-SCOPE-005": "passed" });
    expect(results["OAUTH-SCOPE-001"]!.failure).toMatchObject({ expected: ["gist", "user"], actual: ["gist", "user", "user:email"] });
  });

  it("a code that can be exchanged twice fails OAUTH-TOKEN-007", async () => {
    const results = await againstFake({ reusableCodes: true }, ["OAUTH-TOKEN-007"]);
    expect(results["OAUTH-TOKEN-007"]!.status).toBe("failed");
    expect(results["OAUTH-TOKEN-007"]!.failure).toMatchObject({ message: "second exchange: the error code", expected: "bad_verification_code" });
  });

  it("a token endpoint that answers JSON whatever Accept says fails the form and XML cases", async () => {
    const ids = ["OAUTH-TOKEN-001", "OAUTH-TOKEN-002", "OAUTH-TOKEN-003", "OAUTH-TOKEN-008"];
    const results = await againstFake({ alwaysJson: true }, ids);
    expect(statuses(results)).toEqual({ "OAUTH-TOKEN-001": "failed", "OAUTH-TOKEN-002": "passed", "OAUTH-TOKEN-003": "failed", "OAUTH-TOKEN-008": "failed" });
    expect(results["OAUTH-TOKEN-001"]!.failure!.message).toMatch(/URL-encoded form/);
  });

  it("a second authorization granting only what it asks (not the scopes used last time) fails OAUTH-FLOW-001", async () => {
    const wrong = await againstFake({}, ["OAUTH-FLOW-001"]);
    expect(wrong["OAUTH-FLOW-001"]!.failure).toMatchObject({ expected: ["repo", "user"], actual: ["user"] });
    const right = await againstFake({ reuseLastGrant: true }, ["OAUTH-FLOW-001"]);
    expect(right["OAUTH-FLOW-001"]!.status, explain(right["OAUTH-FLOW-001"]!)).toBe("passed");
  });
});
