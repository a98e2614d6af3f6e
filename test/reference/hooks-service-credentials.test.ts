/**
 * A chat hook's `webhook_url` is a credential (whoever has an incoming-webhook URL can post to the
 * room): a `password` key of the catalog, like travis' token. Over real HTTP with deliveries to a
 * real receiver: the catalog says so, no hook answer (create, get, list, edit) shows it, it is
 * sealed at rest, an edit that leaves it out keeps it — the room still gets the events — and a
 * new one replaces it. The delivery log hid it already (hardening-deliveries.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSecretKey, openSecret } from "../../reference/hooks/secret-box.ts";
import { ADMIN_TOKEN, FAST, simulate } from "./deliveries-fixtures.ts";
import { useHookApi } from "./hooks-fixtures.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

const REPO = "octocat/hello-world";
const HOOKS = `/repos/${REPO}/hooks`;

describe("a chat hook's webhook_url is write-only", () => {
  const api = useHookApi({ adminToken: ADMIN_TOKEN, deliveries: FAST });
  // Two rooms: the hook posts to the first, then an edit moves it to the second.
  let room1: Receiver;
  let room2: Receiver;
  beforeAll(async () => {
    [room1, room2] = await Promise.all([startReceiver(), startReceiver()]);
  });
  afterAll(async () => {
    await Promise.all([room1?.close(), room2?.close()]);
  });

  it("is a password key in the catalog", async () => {
    const catalog = await api.call("GET", "/hooks", api.token);
    expect(catalog.status).toBe(200);
    const chat = (catalog.body as { name: string; schema: [string, string][] }[]).find((s) => s.name === "chat")!;
    expect(chat.schema).toContainEqual(["password", "webhook_url"]);
  });

  it("is never served back, is sealed at rest, survives an edit that leaves it out, and is replaced by a new one", async () => {
    const first = `${new URL(room1.url).origin}/services/T0/B0/first-secret-path`;
    const second = `${new URL(room2.url).origin}/services/T0/B0/second-secret-path`;
    const created = await api.call("POST", HOOKS, api.token, { name: "chat", events: ["push", "issues"], config: { webhook_url: first, channel: "#dev" } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.config).toEqual({ channel: "#dev" });
    const id = created.body.id as number;

    const shown = [created.text, (await api.call("GET", `${HOOKS}/${id}`, api.token)).text, (await api.call("GET", HOOKS, api.token)).text];
    for (const text of shown) expect(text).not.toContain("secret-path");

    const row = async () => (await api.t.server.db.query<{ config: Record<string, string> }>("select config from hooks where id = $1", [id]))[0]!.config;
    expect(JSON.stringify(await row())).not.toContain("secret-path");
    await loadSecretKey(api.t.server.db);
    expect(openSecret((await row()).webhook_url!)).toBe(first);

    // An edit of the channel alone: the URL it cannot read back is kept, and the room still gets pushes.
    const edited = await api.call("PATCH", `${HOOKS}/${id}`, api.token, { config: { channel: "#ops" } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.config).toEqual({ channel: "#ops" });
    expect(edited.text).not.toContain("secret-path");
    await simulate(api.t.api, "push", { repo: REPO });
    await room1.until((r) => r.some((x) => x.event === "push"));
    const push = room1.received.find((x) => x.event === "push")!;
    expect(JSON.parse(push.body.toString())).toMatchObject({ channel: "#ops" });

    // A new URL replaces it: the next event goes there, and still nothing shows it.
    const moved = await api.call("PATCH", `${HOOKS}/${id}`, api.token, { config: { webhook_url: second } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.text).not.toContain("secret-path");
    await simulate(api.t.api, "issues", { repo: REPO });
    await room2.until((r) => r.some((x) => x.event === "issues"));
    expect(room1.received.some((x) => x.event === "issues"), "the first room no longer gets events").toBe(false);
    expect(openSecret((await row()).webhook_url!)).toBe(second);
  });

  it("is still checked as a URL, and still required", async () => {
    const notHttp = await api.call("POST", "/repos/octocat/secret-plans/hooks", api.token, { name: "chat", config: { webhook_url: "mailto:room@chat.example" } });
    expect(notHttp.status).toBe(422);
    expect(notHttp.body.errors).toContainEqual(expect.objectContaining({ field: "config.webhook_url", code: "invalid" }));
    expect(notHttp.text).not.toContain("room@chat.example");
    const missing = await api.call("POST", "/repos/octocat/secret-plans/hooks", api.token, { name: "chat", config: { channel: "#dev" } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toContainEqual(expect.objectContaining({ field: "config.webhook_url", code: "missing_field" }));
  });
});
