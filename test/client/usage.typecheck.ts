/**
 * Compile-only: how the generated client is meant to be used, and the misuse the types must
 * refuse. Checked by `tsc -p .` (part of `npm test`); never run. Each `@ts-expect-error` fails
 * the typecheck if the line below it ever starts compiling, so the types cannot silently widen.
 */
import { ServiceClient, createWebhookReceiver, type ListRepoEventsResponse } from "../../generated/client/index.ts";
import type { ActivityEvent, PushWebhookPayload } from "../../generated/types.ts";

export async function usage(client: ServiceClient): Promise<void> {
  const r = await client.listRepoEvents({ path: { owner: "octocat", repo: "hello" }, query: { page: 2 } });
  switch (r.status) {
    case 200: {
      const events: ActivityEvent[] = r.body;
      const interval: number = r.headers["X-Poll-Interval"];
      const etag: string = r.headers.ETag;
      void events, interval, etag;
      break;
    }
    case 304: {
      const cached: ActivityEvent[] | undefined = r.cached;
      const flag: true = r.notModified;
      // @ts-expect-error a 304 has no body: the events are in `cached`
      const events: ActivityEvent[] = r.body;
      void cached, flag, events;
      break;
    }
    case 404:
      r.body.message.toUpperCase();
      break;
  }
  // @ts-expect-error 418 is not a declared status
  if (r.status === 418) void r;

  // @ts-expect-error owner must be a string
  await client.listRepoEvents({ path: { owner: 1, repo: "hello" } });
  // @ts-expect-error repo is required
  await client.listRepoEvents({ path: { owner: "octocat" } });
  // @ts-expect-error the path parameters are required
  await client.listRepoEvents();
  // @ts-expect-error feeds have no per_page
  await client.listPublicEvents({ query: { per_page: 100 } });
  await client.listPublicEvents();
  // @ts-expect-error no such operation
  await client.listAllTheThings();

  const created = await client.createAuthorization({ body: { scopes: ["repo"], note: "ci" }, headers: { "X-Service-OTP": "123456" } });
  if (created.status === 201) void created.body.token;
  // @ts-expect-error the body is required
  await client.createAuthorization({});

  const controller = new AbortController();
  await client.poll("listRepoEvents", { path: { owner: "o", repo: "r" } }, (events) => {
    const first: ActivityEvent | undefined = events[0];
    void first;
  }, { signal: controller.signal });
  await client.poll(client.listPublicEvents, {}, (events) => void events.map((e) => e.id), { signal: controller.signal });
  // @ts-expect-error not a feed: no 304, so it cannot be polled
  await client.poll("listRepoHooks", { path: { owner: "o", repo: "r" } }, () => {});
  // @ts-expect-error no such operation
  await client.poll("listEverything", {}, () => {});

  for await (const page of client.paginate("listIssueEventsForRepo", { path: { owner: "o", repo: "r" } })) {
    const status: 200 = page.status;
    void status, page.body.map((e) => e.issue);
  }
  for await (const event of client.items("listRepoEvents", { path: { owner: "o", repo: "r" } })) void event.created_at;
  // @ts-expect-error a single issue event is not a list
  client.paginate("getIssueEvent", { path: { owner: "o", repo: "r", event_id: 1 } });

  const { url, state } = client.authorizeUrl({ clientId: "abc", scopes: ["repo", "user"] });
  client.checkState(state, new URL(url).searchParams.get("state"));
  const token = await client.exchangeCode({ clientId: "abc", clientSecret: "s", code: "c", format: "xml" });
  void token.access_token;
  // @ts-expect-error only form, json and xml
  await client.exchangeCode({ clientId: "abc", clientSecret: "s", code: "c", format: "yaml" });

  const remaining: number | undefined = client.rateLimit?.remaining;
  void remaining;

  const receiver = createWebhookReceiver({ secret: "s" });
  receiver.on("push", (payload: PushWebhookPayload, delivery) => void [payload.ref, delivery.id]);
  // @ts-expect-error a push payload has no zen (that is ping)
  receiver.on("push", (payload) => void payload.zen);
  // @ts-expect-error no such event
  receiver.on("pushed", () => {});
}

export function exhaustive(r: ListRepoEventsResponse): string {
  switch (r.status) {
    case 200:
    case 304:
    case 400:
    case 401:
    case 403:
    case 404:
    case 414:
    case 422:
    case 431:
      return String(r.status);
    default: {
      const never: never = r;
      return never;
    }
  }
}
