/**
 * The hook egress policy (reference/hooks/egress.ts, DECISIONS: Hook egress). The rule itself,
 * table-driven, for both policies; then over HTTP: in `public` mode a hook (web, chat, travis) at
 * a literal loopback, private, link-local or metadata address is refused with a 422 naming the
 * rule, and a host name that resolves to loopback (`localhost`) is accepted at creation but
 * refused when the delivery connects — the attempt is in the log with the reason, and nothing
 * arrives. The default `local` mode over HTTP is what every other hook test runs on (hooks at
 * loopback receivers); its refusals are the same code with the other policy (the table).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressProblem, parseEgressPolicy, urlEgressProblem, type EgressPolicy } from "../../reference/hooks/egress.ts";
import { ADMIN_TOKEN, deliveries, eventually, FAST, type HookJson } from "./deliveries-fixtures.ts";
import { REPO_HOOKS, useHookApi, webhook } from "./hooks-fixtures.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

describe("the rule", () => {
  // [address or URL, allowed in local, allowed in public]
  const table: [string, boolean, boolean][] = [
    ["127.0.0.1", true, false],
    ["127.255.0.9", true, false],
    ["::1", true, false],
    ["::ffff:127.0.0.1", true, false],
    ["::ffff:7f00:1", true, false],
    ["10.0.0.1", true, false],
    ["172.16.5.4", true, false],
    ["172.32.0.1", true, true],
    ["192.168.1.1", true, false],
    ["100.64.0.1", true, false],
    ["fc00::1", true, false],
    ["fd12:3456::1", true, false],
    ["169.254.169.254", false, false],
    ["169.254.0.1", false, false],
    ["::ffff:169.254.169.254", false, false],
    ["fe80::1", false, false],
    ["fd00:ec2::254", false, false],
    ["100.100.100.200", false, false],
    ["0.0.0.0", false, false],
    ["::", false, false],
    ["224.0.0.1", false, false],
    ["ff02::1", false, false],
    ["255.255.255.255", false, false],
    ["8.8.8.8", true, true],
    ["2606:4700::1111", true, true],
    ["64:ff9b::a00:1", true, false],
  ];
  it.each(table)("%s: local %s, public %s", (address, local, pub) => {
    expect(addressProblem(address, "local") === undefined, "local").toBe(local);
    expect(addressProblem(address, "public") === undefined, "public").toBe(pub);
  });

  it.each([
    ["http://169.254.169.254/latest/meta-data/", false, false],
    ["http://[fe80::1]/", false, false],
    ["http://metadata.google.internal/computeMetadata/v1/", false, false],
    ["http://METADATA.google.internal./", false, false],
    ["http://metadata/", false, false],
    ["http://0x7f000001/", true, false], // WHATWG reads it as 127.0.0.1
    ["http://2130706433/", true, false],
    ["http://[::ffff:10.0.0.1]/", true, false],
    ["http://localhost/", true, true], // a name: judged after DNS, at connect time
    ["https://hooks.example.com/x", true, true],
  ] as [string, boolean, boolean][])("URL %s: local %s, public %s", (url, local, pub) => {
    expect(urlEgressProblem(url, "local") === undefined, "local").toBe(local);
    expect(urlEgressProblem(url, "public") === undefined, "public").toBe(pub);
  });

  it("reads the policy from a flag or the environment, refusing other values", () => {
    expect(parseEgressPolicy(undefined)).toBe("local");
    expect(parseEgressPolicy("public")).toBe("public");
    expect(() => parseEgressPolicy("none")).toThrow(/local, public/);
  });
});

async function expectRefused(reply: { status: number; body: unknown }, field: string, rule: RegExp): Promise<void> {
  expect(reply.status, JSON.stringify(reply.body)).toBe(422);
  const errors = (reply.body as { errors: { field: string; code: string; message?: string }[] }).errors;
  expect(errors).toEqual([expect.objectContaining({ field, code: "invalid" })]);
  expect(errors[0]!.message).toMatch(/hook egress policy/);
  expect(errors[0]!.message).toMatch(rule);
}

function policyServer(hookEgress: EgressPolicy) {
  return useHookApi({ hookEgress, adminToken: ADMIN_TOKEN, deliveries: FAST });
}

describe("serve --hook-egress public", () => {
  const h = policyServer("public");
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it.each([
    ["http://127.0.0.1:9/hook", /not a public address/],
    ["http://[::1]:9/hook", /not a public address/],
    ["http://[::ffff:127.0.0.1]:9/hook", /not a public address/],
    ["http://10.0.0.1/hook", /not a public address/],
    ["http://192.168.0.10/hook", /not a public address/],
    ["http://0x7f000001/hook", /not a public address/],
    ["http://169.254.169.254/latest/meta-data/", /link-local/],
    ["http://metadata.google.internal/computeMetadata/v1/", /metadata/],
  ])("a webhook at %s is refused (422)", async (url, rule) => {
    await expectRefused(await h.call("POST", REPO_HOOKS, h.token, webhook(url)), "config.url", rule);
  });

  it("an edit to a refused address is refused too", async () => {
    const created = await h.call<HookJson>("POST", REPO_HOOKS, h.token, webhook("https://hooks.invalid/egress-edit", { active: false }));
    expect(created.status).toBe(201);
    await expectRefused(await h.call("PATCH", `${REPO_HOOKS}/${created.body.id}`, h.token, { config: { url: "http://10.1.2.3/" } }), "config.url", /not a public address/);
  });

  it("service hooks: chat webhook_url and travis domain are checked the same way", async () => {
    await expectRefused(await h.call("POST", REPO_HOOKS, h.token, { name: "chat", config: { webhook_url: "http://127.0.0.1:9/chat" } }), "config.webhook_url", /not a public address/);
    await expectRefused(await h.call("POST", REPO_HOOKS, h.token, { name: "travis", config: { user: "u", token: "t", domain: "http://169.254.169.254/" } }), "config.domain", /link-local/);
    await expectRefused(await h.call("POST", REPO_HOOKS, h.token, { name: "travis", config: { user: "u", token: "t", domain: "127.0.0.1:8080" } }), "config.domain", /not a public address/);
  });

  it("a name that resolves to loopback is accepted, but refused when the delivery connects; the log says why", async () => {
    const url = receiver.url.replace("127.0.0.1", "localhost");
    const created = await h.call<HookJson>("POST", REPO_HOOKS, h.token, webhook(url));
    expect(created.status).toBe(201);
    const path = `${REPO_HOOKS}/${created.body.id}`;
    const logged = await eventually(async () => {
      const list = (await deliveries(h.t.api, h.token, path)).body;
      return list.find((d) => d.event === "ping" && d.status !== "pending" && d.status_code === 0);
    }, 15_000, "the ping's attempt in the log");
    expect(logged.status).toBe("refused by egress policy");
    const detail = await h.call<{ response: { payload: unknown; headers: Record<string, string> } }>("GET", `${path}/deliveries/${logged.id}`, h.token);
    expect(detail.status).toBe(200);
    expect(detail.body.response.payload ?? null).toBeNull();
    expect(receiver.received).toHaveLength(0);
  });
});
