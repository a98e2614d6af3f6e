/**
 * A tiny stand-in target for the runner's tests: a node:http server whose answers each test
 * chooses (usually ones that break the contract), plus a few hand-made cases to run against it,
 * so the runner and reporters are tested on failures the real cases would not produce against
 * the reference server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Case } from "../../conformance/core/types.ts";
import type { Profile } from "../../conformance/core/profile.ts";
import { check } from "../../conformance/core/failure.ts";

export interface FakeTarget {
  url: string;
  requests: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** By default: /events answers 200 with an ETag that is not quoted and a body that breaks the schema. */
export const brokenFeed: Handler = (req, res) => {
  if (req.url?.startsWith("/events")) {
    res.writeHead(200, { "content-type": "application/json", etag: "abc123" }).end(JSON.stringify([{ id: 1 }]));
    return;
  }
  res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ message: "Not Found", documentation_url: "https://example.test" }));
};

export async function startFakeTarget(handler: Handler = brokenFeed): Promise<FakeTarget> {
  const requests: FakeTarget["requests"] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const PROFILE: Profile = {
  users: [{ login: "tester", token: "t0ken-of-tester" }],
  repos: { public: "tester/sandbox" },
};

const meta = { seed: "Events › Polling", area: "feeds" as const };

/** Hand-made cases: one breaks on the contract check, one on a check.*, one passes, one needs an app. */
export const FAKE_CASES: Case[] = [
  {
    ...meta,
    id: "FAKE-CONTRACT-001",
    title: "GET /events matches the contract",
    rules: ["S-ACTIVITY-EVENT-FIELDS", "S-FEED-HEADERS", "S-LIMIT-RATE-HEADERS", "D-ETAG", "D-RATE-RESET"],
    needs: ["user"],
    async run(ctx) {
      await ctx.http.request({ operationId: "listPublicEvents", token: ctx.profile.users[0]!.token });
    },
  },
  {
    ...meta,
    id: "FAKE-ETAG-001",
    title: "The ETag is a quoted string",
    async run(ctx) {
      const res = await ctx.http.request({ path: "/events", validate: false });
      check.matches(res.headers.get("etag"), /^(W\/)?"[^"]*"$/, "the ETag is quoted", "/headers/etag");
    },
  },
  {
    ...meta,
    id: "FAKE-PASS-001",
    title: "Unknown paths answer 404",
    async run(ctx) {
      const res = await ctx.http.request({ path: "/nope", validate: false });
      check.status(res.status, 404);
      ctx.note("404 as expected");
    },
  },
  {
    ...meta,
    area: "oauth",
    id: "FAKE-APP-001",
    title: "Needs an application",
    needs: ["app"],
    async run() {
      throw new Error("must not run without an app");
    },
  },
];
