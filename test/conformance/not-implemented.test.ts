/**
 * The profile's `notImplemented`: the suite never requests an operation listed there, a case that
 * needs one is skipped saying so, a case over every feed checks the feeds that are served, and a
 * finding stays in the area of the case that read it. Run against the reference with the listed
 * operations answering 501 (a fetch in front of it, as a half-built target would), once without
 * the list — the 501s fail cases — and once with it: nothing fails and nothing reaches them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReferenceTarget, type ReferenceTarget } from "../../conformance/reference-profile.ts";
import { runSuite } from "../../conformance/run/runner.ts";
import { operationOfRequest } from "../../conformance/core/not-implemented.ts";
import { checkProfile, ProfileError } from "../../conformance/run/load-profile.ts";
import { applyFindings } from "../../conformance/run/rule-results.ts";
import type { CaseResult } from "../../conformance/core/types.ts";
import { ceiling } from "../ceilings.ts";

const MISSING = ["listNetworkEvents", "listOrgEvents", "listUserOrgEvents", "getIssueEvent"];
// A case over every feed (ETAG-001), cases that need a missing operation (ORG-001, GET-001) and
// ones that need none; the whole of `--only feeds,issue-events` would take most of a minute.
const ONLY = "FEEDS-ETAG-001,FEEDS-ORG-001,FEEDS-ORDER-001,ISSUE-EVENTS-GET-001,ISSUE-EVENTS-LIST-001";
const hosts = { api: "http://127.0.0.1:4000", auth: "http://127.0.0.1:4001" };

describe("operationOfRequest", () => {
  it.each([
    ["GET", "/orgs/acme/events", "listOrgEvents"],
    ["GET", "/users/octocat/events/orgs/acme", "listUserOrgEvents"],
    ["GET", "/repos/o/r/issues/events/12", "getIssueEvent"],
    ["GET", "/repos/o/r/issues/12/events", "listIssueEventsForIssue"],
    ["GET", "/repos/o/r/issues/events?page=2", "listIssueEventsForRepo"],
    ["HEAD", "/events", "listPublicEvents"],
    ["POST", "/repos/o/r/hooks", "createRepoHook"],
    ["DELETE", "/events", undefined],
  ])("%s %s → %s", (method, path, id) => {
    expect(operationOfRequest(method, `${hosts.api}${path}`, hosts)).toBe(id);
  });

  it("names operations on their own host only", () => {
    expect(operationOfRequest("POST", `${hosts.auth}/login/oauth/access_token`, hosts)).toBe("createAccessToken");
    expect(operationOfRequest("POST", `${hosts.api}/login/oauth/access_token`, hosts)).toBeUndefined();
    expect(operationOfRequest("GET", "http://elsewhere.example/events", hosts)).toBeUndefined();
  });
});

describe("the profile's notImplemented", () => {
  const base = { users: [{ login: "octocat", token: "t" }] };
  it("takes operationIds and refuses a name that is none", () => {
    expect(checkProfile({ ...base, notImplemented: ["listOrgEvents"] }).notImplemented).toEqual(["listOrgEvents"]);
    expect(() => checkProfile({ ...base, notImplemented: ["listOrgEvent"] })).toThrow(ProfileError);
    expect(() => checkProfile({ ...base, notImplemented: ["listOrgEvent"] })).toThrow(/\/notImplemented\/0: listOrgEvent/);
  });
});

describe("findings stay in their area", () => {
  const result = (id: string, area: CaseResult["area"], rules: string[]): CaseResult => ({ id, area, rules, status: "passed", durationMs: 1, notes: [], title: id, seed: "—" });
  it("a feed's response does not fail an issue-events case; a contract case may take it", () => {
    const results = [result("FEEDS-ETAG-001", "feeds", ["S-FEED-ETAG"]), result("ISSUE-EVENTS-LIST-001", "issue-events", ["S-ERROR-SHAPE"])];
    applyFindings(results, [{ rule: "S-ERROR-SHAPE", seenIn: "FEEDS-ETAG-001", message: "listOrgEvents 501: …", curl: "curl …" }]);
    expect(results.map((r) => r.status)).toEqual(["passed", "passed"]);
    expect(results[0]!.notes.join(" ")).toMatch(/breaks S-ERROR-SHAPE/);
    const withContract = [result("FEEDS-ETAG-001", "feeds", ["S-FEED-ETAG"]), result("CONTRACT-ERRORS-001", "contract", ["S-ERROR-SHAPE"])];
    applyFindings(withContract, [{ rule: "S-ERROR-SHAPE", seenIn: "FEEDS-ETAG-001", message: "listOrgEvents 501: …", curl: "curl …" }]);
    expect(withContract.map((r) => r.status)).toEqual(["passed", "failed"]);
  });
});

describe("a run against a target that does not serve some operations", () => {
  let target: ReferenceTarget;
  beforeAll(async () => {
    target = await startReferenceTarget();
  }, ceiling(60_000));
  afterAll(() => target?.close());

  /** The suite against the reference, with the MISSING operations answering 501 as the stubs do without a handler. */
  async function run(listed: boolean) {
    const urls = target.server.urls;
    const reached: string[] = [];
    const fetchImpl: typeof fetch = async (input, init) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      const id = operationOfRequest(init?.method ?? "GET", url, urls);
      if (id && MISSING.includes(id)) {
        reached.push(id);
        return new Response(JSON.stringify({ message: `Not Implemented: ${id}`, documentation_url: "https://developer.service.example/v3" }), { status: 501, headers: { "content-type": "application/json" } });
      }
      return fetch(input, init);
    };
    const profile = listed ? { ...target.profile, notImplemented: MISSING } : target.profile;
    const summary = await runSuite({ baseUrl: urls.api, authUrl: urls.auth, profile, only: ONLY, fetch: fetchImpl, receiverHost: false });
    return { outcomes: Object.fromEntries(summary.results.map((r) => [r.id, [r.status, r.reason ?? r.failure?.message]])), reached };
  }

  it("without the list, the 501s fail cases (what the list is for)", async () => {
    const { outcomes, reached } = await run(false);
    expect(new Set(reached)).toEqual(new Set(["listNetworkEvents", "listOrgEvents", "getIssueEvent"]));
    expect(["FEEDS-ETAG-001", "FEEDS-ORDER-001", "FEEDS-ORG-001", "ISSUE-EVENTS-GET-001"].map((id) => outcomes[id]?.[0])).toEqual(["failed", "failed", "failed", "failed"]);
  }, ceiling(120_000));

  it("with the list, nothing is requested from them, nothing fails, and the cases that need them say why they skip", async () => {
    const { outcomes, reached } = await run(true);
    expect(reached).toEqual([]);
    expect(outcomes).toEqual({
      // Over every feed: the served ones are checked.
      "FEEDS-ETAG-001": ["passed", undefined],
      "FEEDS-ORDER-001": ["passed", undefined],
      "FEEDS-ORG-001": ["skipped", "the profile says listOrgEvents is not implemented (notImplemented)"],
      "ISSUE-EVENTS-LIST-001": ["passed", undefined],
      "ISSUE-EVENTS-GET-001": ["skipped", "the profile says getIssueEvent is not implemented (notImplemented)"],
    });
  }, ceiling(120_000));
});
