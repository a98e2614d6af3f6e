/**
 * The conformance suite's `browser` authorize driver against the reference server: Chromium signs
 * in as octocat through the real pages, approves (and, in the second case, denies) the consent
 * page by CSS selectors, and the redirect to the callback is caught and returned unfollowed —
 * nothing needs to listen on the callback's port. A wrong password is a failure that says what
 * the page showed, not a hang.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { runReference } from "../../conformance/reference-profile.ts";
import type { Profile } from "../../conformance/core/profile.ts";
import { createAuthorizer } from "../../conformance/authorize/index.ts";
import { CaseFailure } from "../../conformance/core/failure.ts";
import { AUTHORIZE_CASES } from "../conformance/reference-cases.ts";
import { CHROMIUM_PATH, chromiumSkip } from "./chromium.ts";
import { ceiling } from "../ceilings.ts";

const browserDriver = (p: Profile): Profile => ({ ...p, authorize: { driver: "browser", executablePath: CHROMIUM_PATH } });
// The pages need the demo seed only: no history of activity (recording it is CPU the cases do not use).
const server = { history: false } as const;

describe("conformance authorize: browser driver", () => {
  it("approves and denies through Chromium, returning the callback redirect", async (ctx) => {
    const skip = await chromiumSkip();
    if (skip) return ctx.skip(skip);
    const summary = await runReference({ server, cases: AUTHORIZE_CASES, adjustProfile: browserDriver });
    expect(summary.results.map((r) => [r.id, r.status, r.failure?.message, r.failure?.actual])).toEqual([
      ["REF-AUTHORIZE-001", "passed", undefined, undefined],
      ["REF-AUTHORIZE-002", "passed", undefined, undefined],
    ]);
  }, ceiling(90_000));

  it("the example profile's selectors (conformance/profiles/example.yaml) work on the reference's pages", async (ctx) => {
    const skip = await chromiumSkip();
    if (skip) return ctx.skip(skip);
    const example = parse(readFileSync(join(import.meta.dirname, "../../conformance/profiles/example.yaml"), "utf8")) as { authorize: Profile["authorize"] };
    const summary = await runReference({ server, cases: AUTHORIZE_CASES, adjustProfile: (p) => ({ ...p, authorize: { ...example.authorize!, executablePath: CHROMIUM_PATH } }) });
    expect(summary.results.map((r) => [r.id, r.status, r.failure?.message])).toEqual([
      ["REF-AUTHORIZE-001", "passed", undefined],
      ["REF-AUTHORIZE-002", "passed", undefined],
    ]);
  }, ceiling(90_000));

  it("a wrong password fails the case with what the page showed", async (ctx) => {
    const skip = await chromiumSkip();
    if (skip) return ctx.skip(skip);
    const summary = await runReference({
      server,
      cases: AUTHORIZE_CASES.slice(0, 1),
      adjustProfile: (p) => browserDriver({ ...p, users: [{ ...p.users[0]!, password: "wrong-password" }, ...p.users.slice(1)] }),
    });
    const [r] = summary.results;
    expect(r!.status).toBe("failed");
    expect(r!.failure!.message).toBe("signing in as octocat did not get past the login form (check users[0].password and authorize.login)");
    expect(String(r!.failure!.actual)).toMatch(/"Sign in"/);
  }, ceiling(90_000));
});

describe("conformance authorize: a page far longer than a failure quotes", () => {
  it("a failure quotes a few hundred characters of it, cut inside the page", async (ctx) => {
    const skip = await chromiumSkip();
    if (skip) return ctx.skip(skip);
    // A sign-in page that never lets anyone past, its title and text far over what a failure
    // quotes (kept to 64 KB each: Chromium lays the page out twice, and that is CPU the run pays).
    const page = `<!doctype html><title>${"T".repeat(64 * 1024)}</title><form method="post" action="/session"><input name="login"><input type="password" name="password"><button type="submit">Sign in</button></form><p>${"word ".repeat(13 * 1024)}</p>`;
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "text/html" }).end(page));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const authUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const profile: Profile = { users: [{ login: "octocat", password: "pa55word" }], app: { clientId: "c", clientSecret: "s", callbackUrl: "http://127.0.0.1:9/cb" }, authorize: { driver: "browser", executablePath: CHROMIUM_PATH } };
    const authorizer = createAuthorizer(profile, authUrl);
    try {
      const error = await authorizer.authorize({ client_id: "c", redirect_uri: "http://127.0.0.1:9/cb", state: "s" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CaseFailure);
      expect((error as CaseFailure).message).toBe("signing in as octocat did not get past the login form (check users[0].password and authorize.login)");
      const actual = String((error as CaseFailure).detail.actual);
      expect(actual).toMatch(new RegExp(`^${authUrl}/session "T{200}": Sign in word word`));
      expect(actual.length).toBeLessThan(authUrl.length + 600);
    } finally {
      await authorizer.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }, ceiling(90_000));
});
