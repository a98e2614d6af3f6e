/**
 * Profile files: YAML or JSON, `${ENV}` expanded, checked against
 * spec/conformance-profile.schema.json with every problem reported at once (with its pointer),
 * and the shipped example kept valid.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProfile, loadProfile, ProfileError } from "../../conformance/run/load-profile.ts";

const dir = mkdtempSync(join(tmpdir(), "sc-profile-"));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const EXAMPLE = join(import.meta.dirname, "../../conformance/profiles/example.yaml");
const EXAMPLE_ENV = {
  CONFORMANCE_OWNER_PASSWORD: "pw-owner",
  CONFORMANCE_OWNER_TOKEN: "tok-owner",
  CONFORMANCE_OUTSIDER_PASSWORD: "pw-out",
  CONFORMANCE_OUTSIDER_TOKEN: "tok-out",
  CONFORMANCE_CLIENT_SECRET: "secret",
};

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ProfileError) return error.problems;
    throw error;
  }
  throw new Error("expected a ProfileError");
}

describe("profile files", () => {
  it("the shipped example is valid, with secrets from the environment", () => {
    const profile = loadProfile(EXAMPLE, EXAMPLE_ENV);
    expect(profile.users[0]).toEqual({ login: "test-owner", password: "pw-owner", token: "tok-owner" });
    expect(profile.authorize?.driver).toBe("browser");
    expect(profile.triggers?.create?.[0]).toMatchObject({ http: { headers: { Authorization: "token tok-owner" } } });
    expect(profile.triggers?.release?.[0]).toMatchObject({ http: { body: { params: "{*}" } } });
  });

  it("names every environment variable that is not set", () => {
    expect(problems(() => loadProfile(EXAMPLE, { CONFORMANCE_OWNER_TOKEN: "x" }))).toEqual(["CONFORMANCE_CLIENT_SECRET", "CONFORMANCE_OUTSIDER_PASSWORD", "CONFORMANCE_OUTSIDER_TOKEN", "CONFORMANCE_OWNER_PASSWORD"]);
  });

  it("reads JSON as well", () => {
    const path = file("p.json", JSON.stringify({ users: [{ login: "a", token: "t" }], repos: { public: "a/b" } }));
    expect(loadProfile(path, {})).toEqual({ users: [{ login: "a", token: "t" }], repos: { public: "a/b" } });
  });

  it.each([
    ["no users", { org: "o" }, ["/: must have required property 'users'"]],
    ["an empty user list", { users: [] }, ["/users: must NOT have fewer than 1 items"]],
    ["an unknown field (a typo)", { users: [{ login: "a" }], repo: { public: "a/b" } }, ["/: must NOT have additional properties (repo)"]],
    ["a repository without owner", { users: [{ login: "a" }], repos: { public: "hello-world" } }, ['/repos/public: must match pattern "^[^/\\s]+/[^/\\s]+$"']],
    ["an unknown driver", { users: [{ login: "a" }], authorize: { driver: "selenium" } }, ["/authorize/driver: must be equal to one of the allowed values"]],
    ["an app without secret and a bad callback", { users: [{ login: "a" }], app: { clientId: "c", callbackUrl: "ftp://x" } }, ["/app: must have required property 'clientSecret'", '/app/callbackUrl: must match pattern "^https?://"']],
    ["an issue that is not a number", { users: [{ login: "a" }], issue: "1" }, ["/issue: must be integer"]],
    ["a trigger step that is neither http nor command", { users: [{ login: "a" }], triggers: { push: [{ shell: "git push" }] } }, expect.arrayContaining(["/triggers/push/0: must match exactly one schema in oneOf"])],
  ])("refuses %s with every problem and its pointer", (_name, value, expected) => {
    expect(problems(() => checkProfile(value))).toEqual(expected);
  });

  it("says to quote a token that YAML read as a number", () => {
    const path = file("digits.yaml", "users:\n  - { login: a, token: 0123456789012345678901234567890123456789 }\n");
    expect(problems(() => loadProfile(path, {}))).toEqual(["/users/0/token: must be string (YAML read a number here: quote the value)"]);
  });

  it("reports an unreadable file and a file that is not YAML", () => {
    expect(() => loadProfile(join(dir, "missing.yaml"))).toThrow(/cannot read the profile .*missing\.yaml: ENOENT/);
    expect(() => loadProfile(file("bad.yaml", "users: [\n  - login: a\n"))).toThrow(/is not valid YAML or JSON/);
    expect(() => loadProfile(file("empty.yaml", ""))).toThrow(/does not match spec\/conformance-profile\.schema\.json/);
  });
});
