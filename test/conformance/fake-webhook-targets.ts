/**
 * A small fake hooks service for proving that the hook and webhook cases fail on real defects:
 * a node:http server (test/conformance/fake-targets.ts `startFake`) answering the repository
 * hook operations in the contract's shapes, and a `/_trigger/:event` endpoint the fake profile's
 * triggers call, which sends the contract's own example payloads (spec/examples/webhooks) to the
 * subscribed hooks — signed, with the delivery headers, JSON or form. Every answer and payload
 * is checked against the contract here and any problem recorded in `contractErrors` (and sent
 * all the same): the sound fake must have none, so a case that fails against a fake fails for
 * the one defect it was given: a signature over re-serialized JSON, no ping on creation, a missing or non-UUID
 * X-Service-Delivery, unsubscribed events delivered, a secret echoed, and so on. `GET /hooks`
 * answers a catalog of one entry, `web`.
 */
import { createHmac, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { validateResponse, validateWebhook, webhookEvents } from "../../generated/validators/index.js";
import type { Profile } from "../../conformance/core/profile.ts";
import { errorReply, rateHeaders, startFake, type FakeReply, type FakeRequest, type FakeServer } from "./fake-targets.ts";

export interface FakeHooksOptions {
  /** What the signatures cover: the bytes sent (correct) or the payload re-serialized with a 2-space indent. */
  signature?: "raw" | "reserialized";
  /** Send a ping when a hook is created (default true). */
  pingOnCreate?: boolean;
  /** X-Service-Delivery: a new UUID (correct), none, a counter, or the same UUID every time. */
  deliveryId?: "uuid" | "missing" | "counter" | "repeated";
  /** Deliver every triggered event to every active hook, subscribed or not. */
  deliverUnsubscribed?: boolean;
  /** Return the config secret in hook responses: as config.secret (the schema forbids it) or in last_response.message (it cannot tell). */
  echoSecret?: "config" | "message";
  /** The events of a hook created without `events` (default ["push"]). */
  defaultEvents?: string[];
  /** Whether `*` replaces the other names (default true). */
  wildcardReplaces?: boolean;
  /** DELETE answers 204 but the hook stays. */
  deleteKeeps?: boolean;
  /** Accept a second webhook posting to the same URL. */
  acceptDuplicateUrls?: boolean;
  /** Accept membership and repository on repository hooks. */
  acceptOrgOnlyEvents?: boolean;
  /** Accept hooks at link-local and cloud metadata addresses (DECISIONS: Hook egress). */
  acceptMetadataUrls?: boolean;
}

/** The sound fake's egress rule, written apart from the reference's: link-local hosts and metadata names. */
function metadataUrl(url: string): boolean {
  const host = URL.canParse(url) ? new URL(url).hostname.toLowerCase() : "";
  return /^169\.254\./.test(host) || /^\[fe[89ab]/.test(host) || host === "metadata.google.internal";
}

interface StoredHook {
  id: number;
  events: string[];
  active: boolean;
  config: { url: string; content_type: "json" | "form"; insecure_ssl: string };
  secret?: string;
  created: string;
}

export const FAKE_REPO = "octo-org/hello-world";
const ORG_ONLY = ["membership", "repository"];
const SCOPE_HEADERS = { "x-oauth-scopes": "admin:repo_hook, repo", "x-accepted-oauth-scopes": "admin:repo_hook, repo" };

function example(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../spec/examples/webhooks/${path}`, import.meta.url), "utf8")) as Record<string, unknown>;
}

/** The payloads a trigger sends: the contract's own valid examples, about FAKE_REPO. */
const PAYLOADS: Record<string, Record<string, unknown>> = {
  push: example("push/valid-branch-push.json"),
  issues: example("issues/valid-opened.json"),
};

export interface FakeHooksTarget {
  url: string;
  /** Problems with the fake's own answers (must stay empty: a fake that breaks the contract proves nothing). */
  contractErrors: string[];
  /** The profile a run against this fake uses: users[0] with a token, the repository, triggers for push and issues. */
  profile: Profile;
  close(): Promise<void>;
}

function normalize(events: readonly string[], wildcardReplaces: boolean): string[] {
  const unique = [...new Set(events)].sort();
  return wildcardReplaces && unique.includes("*") ? ["*"] : unique;
}

function seconds(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}

export async function startFakeHooks(options: FakeHooksOptions = {}): Promise<FakeHooksTarget> {
  const hooks = new Map<number, StoredHook>();
  const contractErrors: string[] = [];
  let nextId = 1;
  let deliveries = 0;
  const repeated = randomUUID();
  const wildcard = options.wildcardReplaces ?? true;

  const hookJson = (base: string, h: StoredHook) => {
    const url = `${base}/repos/${FAKE_REPO}/hooks/${h.id}`;
    return {
      id: h.id,
      url,
      test_url: `${url}/tests`,
      ping_url: `${url}/pings`,
      deliveries_url: `${url}/deliveries`,
      name: "web",
      events: h.events,
      active: h.active,
      config: { ...h.config, ...(options.echoSecret === "config" && h.secret ? { secret: h.secret } : {}) },
      updated_at: h.created,
      created_at: h.created,
      last_response: { code: null, status: "unused", message: options.echoSecret === "message" && h.secret ? `signing with ${h.secret}` : null },
    };
  };

  const deliveryId = (): string | undefined => {
    deliveries += 1;
    switch (options.deliveryId ?? "uuid") {
      case "missing":
        return undefined;
      case "counter":
        return `delivery-${deliveries}`;
      case "repeated":
        return repeated;
      default:
        return randomUUID();
    }
  };

  const send = async (hook: StoredHook, event: string, payload: Record<string, unknown>): Promise<void> => {
    const verdict = validateWebhook(event, payload);
    if (!verdict.valid) contractErrors.push(`${event} payload: ${JSON.stringify(verdict.errors.slice(0, 2))}`);
    const json = JSON.stringify(payload);
    const form = hook.config.content_type === "form";
    const body = form ? new URLSearchParams({ payload: json }).toString() : json;
    const headers: Record<string, string> = {
      "content-type": form ? "application/x-www-form-urlencoded" : "application/json",
      "user-agent": "Service-Hookshot/fake",
      "x-service-event": event,
    };
    const id = deliveryId();
    if (id !== undefined) headers["x-service-delivery"] = id;
    if (hook.secret) {
      const pretty = JSON.stringify(payload, null, 2);
      const signed = options.signature === "reserialized" ? (form ? new URLSearchParams({ payload: pretty }).toString() : pretty) : body;
      headers["x-hub-signature"] = `sha1=${createHmac("sha1", hook.secret).update(signed).digest("hex")}`;
      headers["x-hub-signature-256"] = `sha256=${createHmac("sha256", hook.secret).update(signed).digest("hex")}`;
    }
    await fetch(hook.config.url, { method: "POST", headers, body }).then((r) => r.arrayBuffer()).catch(() => undefined);
  };

  const ping = (base: string, hook: StoredHook) => {
    if (!hook.active) return;
    const payload = { zen: "Keep it logically awesome.", hook_id: hook.id, hook: hookJson(base, hook) };
    setTimeout(() => void send(hook, "ping", payload), 5);
  };

  const reply = (operationId: string, status: number, body?: unknown, extra: Record<string, string> = {}): FakeReply => {
    const headers: Record<string, string> = { ...rateHeaders(4999), ...SCOPE_HEADERS, ...extra, ...(body !== undefined ? { "content-type": "application/json" } : {}) };
    const verdict = validateResponse(operationId as never, status, body, { headers, mediaType: body !== undefined ? "application/json" : undefined });
    // Recorded, and sent all the same: some defects are ones the contract's schemas can see.
    if (!verdict.valid) contractErrors.push(`${operationId} ${status}: ${JSON.stringify(verdict.errors.slice(0, 3))}`);
    return { status, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  };

  /** A URL a hook may post to (DECISIONS: URLs a hook posts to): absolute http(s), a host, no user info. */
  const postable = (url: string): boolean => {
    try {
      const u = new URL(url);
      return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "" && u.username === "" && u.password === "";
    } catch {
      return false;
    }
  };
  const invalid = (operationId: string, field: string, code: string): FakeReply => reply(operationId, 422, { message: "Validation Failed", errors: [{ resource: "Hook", field, code }], documentation_url: "https://docs.service.example" });

  const orgOnly = (events: readonly string[] | undefined) => !options.acceptOrgOnlyEvents && (events ?? []).some((e) => ORG_ONLY.includes(e));

  const handle = (req: FakeRequest): FakeReply => {
    const base = `http://${req.headers.host}`;
    const path = req.url.pathname;
    const body = req.body ? (JSON.parse(req.body) as Record<string, any>) : {};
    const collection = `/repos/${FAKE_REPO}/hooks`;
    const trigger = /^\/_trigger\/([a-z_]+)$/.exec(path);
    if (trigger && req.method === "POST") {
      const event = trigger[1]!;
      const payload = PAYLOADS[event];
      if (!payload) return errorReply(404, `no trigger for ${event}`);
      for (const hook of hooks.values()) {
        if (hook.active && (options.deliverUnsubscribed || hook.events.includes("*") || hook.events.includes(event))) void send(hook, event, payload);
      }
      return { status: 201, headers: { "content-type": "application/json" }, body: "{}" };
    }
    if (path === "/hooks" && req.method === "GET") {
      const web = { name: "web", title: "Web", events: options.defaultEvents ?? ["push"], supported_events: ["*", ...webhookEvents.filter((e) => e !== "ping")], schema: [["string", "url"], ["string", "content_type"], ["password", "secret"], ["boolean", "insecure_ssl"]] };
      return reply("listServiceHooks", 200, [web]);
    }
    if (path === collection && req.method === "GET") return reply("listRepoHooks", 200, [...hooks.values()].map((h) => hookJson(base, h)));
    if (path === collection && req.method === "POST") {
      const config = (body.config ?? {}) as Record<string, string>;
      if (!config.url) return invalid("createRepoHook", "config.url", "missing_field");
      if (!postable(config.url)) return invalid("createRepoHook", "config.url", "invalid");
      if (!options.acceptDuplicateUrls && [...hooks.values()].some((h) => h.config.url === config.url)) return invalid("createRepoHook", "config.url", "already_exists");
      if (orgOnly(body.events)) return invalid("createRepoHook", "events", "invalid");
      if (!options.acceptMetadataUrls && metadataUrl(config.url)) return invalid("createRepoHook", "config.url", "invalid");
      const hook: StoredHook = {
        id: nextId++,
        events: normalize(body.events ?? options.defaultEvents ?? ["push"], wildcard),
        active: body.active ?? true,
        config: { url: config.url, content_type: config.content_type === "form" ? "form" : "json", insecure_ssl: "0" },
        ...(config.secret ? { secret: config.secret } : {}),
        created: seconds(),
      };
      hooks.set(hook.id, hook);
      if (options.pingOnCreate ?? true) ping(base, hook);
      const json = hookJson(base, hook);
      return reply("createRepoHook", 201, json, { location: json.url });
    }
    const one = /^\/repos\/[^/]+\/[^/]+\/hooks\/(\d+)(\/pings)?$/.exec(path);
    if (one) {
      const hook = hooks.get(Number(one[1]));
      const operation = one[2] ? "pingRepoHook" : ({ GET: "getRepoHook", PATCH: "updateRepoHook", DELETE: "deleteRepoHook" } as Record<string, string>)[req.method];
      if (!operation) return errorReply(404, "Not Found");
      if (!hook) return reply(operation, 404, { message: "Not Found", documentation_url: "https://docs.service.example" });
      if (one[2] && req.method === "POST") {
        ping(base, hook);
        return reply(operation, 204);
      }
      if (req.method === "GET") return reply(operation, 200, hookJson(base, hook));
      if (req.method === "DELETE") {
        if (!options.deleteKeeps) hooks.delete(hook.id);
        return reply(operation, 204);
      }
      if (req.method === "PATCH") {
        if (orgOnly(body.events) || orgOnly(body.add_events)) return invalid(operation, "events", "invalid");
        let events: string[] = body.events ?? hook.events;
        if (body.add_events) events = [...events, ...body.add_events];
        if (body.remove_events) events = events.filter((e) => !body.remove_events.includes(e));
        hook.events = normalize(events, wildcard);
        if (typeof body.active === "boolean") hook.active = body.active;
        if (body.config) {
          const config = body.config as Record<string, string>;
          hook.config = { url: config.url ?? hook.config.url, content_type: config.content_type === "form" ? "form" : "json", insecure_ssl: "0" };
          if (config.secret === "") delete hook.secret;
          else if (config.secret !== undefined) hook.secret = config.secret;
        }
        return reply(operation, 200, hookJson(base, hook));
      }
    }
    return errorReply(404, "Not Found");
  };

  const server: FakeServer = await startFake(handle);
  const step = (event: string) => [{ http: { method: "POST", url: `/_trigger/${event}` } }];
  return {
    url: server.url,
    contractErrors,
    profile: {
      users: [{ login: "octocat", token: "fake-token-of-octocat" }],
      repos: { public: FAKE_REPO },
      triggers: { push: step("push"), issues: step("issues") },
      deliveryTimeoutMs: 2_000,
    },
    close: () => server.close(),
  };
}
