/**
 * What the issue event cases share: the three endpoints for the profile's public repository, the
 * per-kind presence rules of the seed (label only on labeled/unlabeled, assignee only on
 * assigned/unassigned, milestone only on (de)milestoned, rename only on renamed; commit_id a SHA
 * on merged and referenced, a SHA or nothing on closed, nothing elsewhere), and making a kind
 * happen through the profile's triggers, then finding the new event by what it was not before.
 */
import type { CaseContext } from "../../core/types.ts";
import type { HttpResponse } from "../../core/http.ts";
import { check, CaseFailure } from "../../core/failure.ts";
import { parseLink, type Links } from "../feeds/link.ts";

export const SEED = {
  endpoints: "Endpoints › B. Issue events",
  resource: "Resources › Issue event",
  kinds: "Events › Issue event kinds",
} as const;

export const NEEDS = ["public-repo", "issue"] as const;

export interface IssueEvent {
  id: number;
  url: string;
  event: string;
  actor: { login: string; id: number };
  created_at: string;
  commit_id?: string | null;
  label?: { name: string; color: string } | null;
  assignee?: { login: string } | null;
  milestone?: { title: string } | null;
  rename?: { from: string; to: string } | null;
  issue?: { number: number; pull_request?: unknown } | null;
}

export function repo(ctx: CaseContext): { owner: string; repo: string; full: string } {
  const full = ctx.profile.repos?.public;
  if (!full) ctx.skip("the profile names no public repository");
  const [owner = "", name = ""] = full.split("/");
  return { owner, repo: name, full };
}

export function issueNumber(ctx: CaseContext): number {
  const n = ctx.profile.issue;
  if (n === undefined) ctx.skip("the profile names no issue");
  return n;
}

/** users[0]'s token when there is one (higher rate limit; the public repository needs none). */
function token(ctx: CaseContext): string | undefined {
  return ctx.profile.users[0]?.token;
}

export async function issueList(ctx: CaseContext, number: number, url?: string): Promise<{ res: HttpResponse; events: IssueEvent[]; links: Links }> {
  const r = repo(ctx);
  const res = await ctx.http.request({ operationId: "listIssueEventsForIssue", params: { owner: r.owner, repo: r.repo, issue_number: number }, ...(url ? { path: url } : {}), token: token(ctx) });
  check.status(res.status, 200, `/repos/${r.full}/issues/${number}/events`);
  return { res, events: res.json<IssueEvent[]>(), links: parseLink(res.headers.get("link"), res.exchange.url) };
}

export async function repoList(ctx: CaseContext, options: { page?: number; url?: string } = {}): Promise<{ res: HttpResponse; events: IssueEvent[]; links: Links }> {
  const r = repo(ctx);
  const res = await ctx.http.request({
    operationId: "listIssueEventsForRepo",
    params: { owner: r.owner, repo: r.repo },
    ...(options.url ? { path: options.url } : {}),
    query: options.page ? { page: String(options.page) } : {},
    token: token(ctx),
  });
  check.status(res.status, 200, `/repos/${r.full}/issues/events${options.page ? `?page=${options.page}` : ""}`);
  return { res, events: res.json<IssueEvent[]>(), links: parseLink(res.headers.get("link"), res.exchange.url) };
}

export async function single(ctx: CaseContext, id: number): Promise<HttpResponse> {
  const r = repo(ctx);
  return ctx.http.request({ operationId: "getIssueEvent", params: { owner: r.owner, repo: r.repo, event_id: id }, token: token(ctx) });
}

/** Every event of one issue, following rel="next" (up to 20 pages). */
export async function allOfIssue(ctx: CaseContext, number: number): Promise<IssueEvent[]> {
  const out: IssueEvent[] = [];
  let url: string | undefined;
  for (let i = 0; i < 20; i++) {
    const { events, links } = await issueList(ctx, number, url);
    out.push(...events);
    url = links.next;
    if (!url || events.length === 0) break;
  }
  return out;
}

/** Which field each kind carries; every other kind must not carry it. */
export const FIELD_OF_KIND: Record<string, "label" | "assignee" | "milestone" | "rename"> = {
  labeled: "label",
  unlabeled: "label",
  assigned: "assignee",
  unassigned: "assignee",
  milestoned: "milestone",
  demilestoned: "milestone",
  renamed: "rename",
};
const KIND_FIELDS = ["label", "assignee", "milestone", "rename"] as const;
const SHA = /^[0-9a-f]{40}$/;

/** The seed's presence rules for one event; `where` and `pointer` locate it in messages. */
export function checkPresence(e: IssueEvent, where: string, pointer = "/body"): void {
  const own = FIELD_OF_KIND[e.event];
  for (const field of KIND_FIELDS) {
    const value = e[field];
    if (field === own) check.ok(value && typeof value === "object", `${where}: a ${e.event} event carries ${field}`, { expected: `an object in ${field}`, actual: value, pointer: `${pointer}/${field}` });
    else check.ok(value === undefined || value === null, `${where}: a ${e.event} event carries no ${field} (only ${Object.keys(FIELD_OF_KIND).filter((k) => FIELD_OF_KIND[k] === field).join(" and ")} do)`, { expected: "absent", actual: value, pointer: `${pointer}/${field}` });
  }
  if (e.event === "merged" || e.event === "referenced") check.matches(e.commit_id, SHA, `${where}: a ${e.event} event's commit_id is the commit's SHA`, `${pointer}/commit_id`);
  else if (e.event === "closed") {
    if (e.commit_id !== undefined && e.commit_id !== null) check.matches(e.commit_id, SHA, `${where}: a closed event's commit_id, when present, is a SHA`, `${pointer}/commit_id`);
  } else check.ok(e.commit_id === undefined || e.commit_id === null, `${where}: a ${e.event} event has no commit (commit_id absent or null)`, { actual: e.commit_id, pointer: `${pointer}/commit_id` });
}

export { nonce } from "../../core/random.ts";

/**
 * Runs `trigger` and returns the new event of `kind` on issue `number`: the one that was not in
 * the issue's list before.
 */
export async function happen(ctx: CaseContext, number: number, kind: string, trigger: () => Promise<unknown>): Promise<IssueEvent> {
  const before = new Set((await allOfIssue(ctx, number)).map((e) => e.id));
  await trigger();
  const fresh = (await allOfIssue(ctx, number)).filter((e) => !before.has(e.id));
  const match = fresh.filter((e) => e.event === kind);
  check.ok(match.length > 0, `after the ${kind} trigger, #${number}'s list has a new ${kind} event`, { expected: `a new ${kind} event`, actual: fresh.map((e) => `${e.id} ${e.event}`) });
  return match.at(-1)!;
}

/**
 * Two kinds that undo each other (closed/reopened, locked/unlocked): in this order, or — when
 * the first is refused because the issue is already in that state — the other way round, so the
 * issue ends as it was.
 */
export async function both(ctx: CaseContext, number: number, first: [string, () => Promise<unknown>], second: [string, () => Promise<unknown>]): Promise<Record<string, IssueEvent>> {
  try {
    const a = await happen(ctx, number, first[0], first[1]);
    const b = await happen(ctx, number, second[0], second[1]);
    return { [first[0]]: a, [second[0]]: b };
  } catch (error) {
    if (!(error instanceof CaseFailure) || !/^trigger\b/.test(error.message)) throw error;
    ctx.note(`${first[0]} was refused (${error.message}); trying ${second[0]} first`);
    const b = await happen(ctx, number, second[0], second[1]);
    const a = await happen(ctx, number, first[0], first[1]);
    return { [first[0]]: a, [second[0]]: b };
  }
}

/** The single event must carry `issue` (the event's issue) and match the list entry. */
export async function checkSingle(ctx: CaseContext, e: IssueEvent, number: number): Promise<void> {
  const res = await single(ctx, e.id);
  check.status(res.status, 200, `/issues/events/${e.id}`);
  const got = res.json<IssueEvent>();
  check.ok(got.issue && typeof got.issue === "object", `the single event ${e.id} carries issue`, { expected: "an issue object", actual: got.issue, pointer: "/body/issue" });
  check.equal(got.issue!.number, number, `the single event's issue is #${number}`, "/body/issue/number");
  check.equal({ id: got.id, event: got.event, actor: got.actor?.login }, { id: e.id, event: e.event, actor: e.actor?.login }, "the single event is the one in the list", "/body");
  checkPresence(got, `/issues/events/${e.id}`);
}
