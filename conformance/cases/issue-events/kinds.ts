/**
 * ISSUE-EVENTS-KIND-*: each issue event kind, made to happen through the profile's triggers and
 * then read back (seed: Events › Issue event kinds; Resources › Issue event — label, assignee,
 * milestone and rename only on their kinds, commit_id on merged and referenced). Kinds that undo
 * each other are made in pairs so the profile's issue ends as it was. Trigger names follow the
 * webhook events (`issues` with `action`, `pull_request` with `action`) and, for kinds no webhook
 * event carries, the kind itself (`milestoned`, `renamed`, `locked`, `referenced`, …), each with
 * `number` and the kind's own parameter (label, assignee, milestone, title).
 */
import type { Case, CaseDraft, CaseContext } from "../../core/types.ts";
import { withRules } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { both, checkPresence, checkSingle, happen, issueNumber, nonce, NEEDS, repo, SEED, type IssueEvent } from "./support.ts";

const KIND_NEEDS = [...NEEDS, "trigger"] as const;

function kindCase(id: string, title: string, run: (ctx: CaseContext, number: number) => Promise<void>, needs: readonly ("public-repo" | "issue" | "trigger" | "user")[] = KIND_NEEDS): CaseDraft {
  return { id, title, area: "issue-events", seed: SEED.kinds, needs, run: (ctx) => run(ctx, issueNumber(ctx)) };
}

/** The event read back: presence rules in the list entry, and the single event agrees. */
async function verify(ctx: CaseContext, e: IssueEvent, number: number): Promise<void> {
  checkPresence(e, `/issues/${number}/events event ${e.id} (${e.event})`);
  check.ok(!("issue" in e), `the per-issue list entry of ${e.id} has no issue field`, { actual: e.issue, pointer: "/body/issue" });
  await checkSingle(ctx, e, number);
}

const issues = (ctx: CaseContext, params: Record<string, string>) => () => ctx.trigger("issues", params);
const kind = (ctx: CaseContext, name: string, params: Record<string, string>) => () => ctx.trigger(name, params);

interface OpenedPull {
  number: number;
  headSha?: string;
}

/** A new pull request in the public repository, found on the repository feed after the trigger. */
async function openPull(ctx: CaseContext): Promise<OpenedPull> {
  const r = repo(ctx);
  const feed = { operationId: "listRepoEvents" as const, params: { owner: r.owner, repo: r.repo }, token: ctx.profile.users[0]?.token };
  const before = new Set((await ctx.http.request(feed)).json<{ id: string }[]>().map((e) => e.id));
  const title = `Conformance pull request ${nonce()}`;
  await ctx.trigger("pull_request", { action: "opened", title });
  const after = (await ctx.http.request(feed)).json<{ id: string; type: string; payload: { action?: string; number?: number; pull_request?: { head?: { sha?: string } } } }[]>();
  const opened = after.find((e) => !before.has(e.id) && e.type === "PullRequestEvent" && e.payload.action === "opened");
  if (!opened?.payload.number) ctx.skip(`the pull_request trigger (action=opened) made no PullRequestEvent "opened" on /repos/${r.full}/events to take the number from`);
  return { number: opened.payload.number, headSha: opened.payload.pull_request?.head?.sha };
}

/** The rules each case below enforces (spec/seed-rules.yaml, spec/DECISIONS.md). */
const RULES: Record<string, readonly string[]> = {
  "ISSUE-EVENTS-KIND-001": ["S-ISSUE-EVENT-KINDS", "S-ISSUE-EVENT-COMMIT-ID", "D-SCHEMA-ISSUE-EVENT-COMMIT-ID", "D-ISSUE-STATE-TRANSITIONS"],
  "ISSUE-EVENTS-KIND-002": ["S-ISSUE-EVENT-KINDS", "S-ISSUE-EVENT-KIND-FIELDS", "D-SCHEMA-ISSUE-EVENT-KIND-FIELDS"],
  "ISSUE-EVENTS-KIND-003": ["S-ISSUE-EVENT-KINDS", "S-ISSUE-EVENT-KIND-FIELDS", "D-SCHEMA-ISSUE-EVENT-KIND-FIELDS"],
  "ISSUE-EVENTS-KIND-004": ["S-ISSUE-EVENT-KINDS", "S-ISSUE-EVENT-KIND-FIELDS", "D-SCHEMA-ISSUE-EVENT-KIND-FIELDS"],
  "ISSUE-EVENTS-KIND-005": ["S-ISSUE-EVENT-KINDS", "S-ISSUE-EVENT-KIND-FIELDS", "D-SCHEMA-ISSUE-EVENT-KIND-FIELDS"],
  "ISSUE-EVENTS-KIND-006": ["S-ISSUE-EVENT-KINDS", "D-SCHEMA-ISSUE-EVENT-COMMIT-ID"],
  "ISSUE-EVENTS-KIND-007": ["S-ISSUE-EVENT-KINDS", "S-ISSUE-EVENT-COMMIT-ID", "D-SCHEMA-ISSUE-EVENT-COMMIT-ID", "D-SCHEMA-PULL-REQUEST"],
  "ISSUE-EVENTS-KIND-008": ["S-ISSUE-EVENT-KINDS", "D-SCHEMA-ISSUE-EVENT-COMMIT-ID"],
  "ISSUE-EVENTS-KIND-009": ["S-ISSUE-EVENT-KINDS", "S-ISSUE-EVENT-COMMIT-ID", "D-SCHEMA-ISSUE-EVENT-COMMIT-ID", "D-SCHEMA-PULL-REQUEST", "D-ISSUE-MERGED-COMMIT"],
  "ISSUE-EVENTS-KIND-010": ["S-ISSUE-EVENT-KINDS", "D-SCHEMA-ISSUE-EVENT-COMMIT-ID"],
};

export const KIND_CASES: Case[] = withRules(RULES, [
  kindCase("ISSUE-EVENTS-KIND-001", "closed and reopened: commit_id only a SHA (or nothing) on closed, no kind fields", async (ctx, n) => {
    const got = await both(ctx, n, ["closed", issues(ctx, { action: "closed", number: String(n) })], ["reopened", issues(ctx, { action: "reopened", number: String(n) })]);
    for (const e of Object.values(got)) await verify(ctx, e, n);
  }),
  kindCase("ISSUE-EVENTS-KIND-002", "labeled and unlabeled carry the label (name and hex colour)", async (ctx, n) => {
    const label = `conformance-${nonce()}`;
    for (const action of ["labeled", "unlabeled"]) {
      const e = await happen(ctx, n, action, issues(ctx, { action, number: String(n), label }));
      check.equal(e.label?.name, label, `the ${action} event names the label`, "/body/label/name");
      check.matches(e.label?.color, /^[0-9a-fA-F]{6}$/, `the ${action} event's label colour is hex without #`, "/body/label/color");
      await verify(ctx, e, n);
    }
  }),
  kindCase(
    "ISSUE-EVENTS-KIND-003",
    "assigned and unassigned carry the assignee",
    async (ctx, n) => {
      const login = ctx.profile.users[0]!.login;
      for (const action of ["assigned", "unassigned"]) {
        const e = await happen(ctx, n, action, issues(ctx, { action, number: String(n), assignee: login }));
        check.equal(e.assignee?.login, login, `the ${action} event names the assignee`, "/body/assignee/login");
        await verify(ctx, e, n);
      }
    },
    [...KIND_NEEDS, "user"],
  ),
  kindCase("ISSUE-EVENTS-KIND-004", "milestoned and demilestoned carry the milestone title", async (ctx, n) => {
    const milestone = `Conformance ${nonce()}`;
    for (const name of ["milestoned", "demilestoned"]) {
      const e = await happen(ctx, n, name, kind(ctx, name, { number: String(n), milestone }));
      check.equal(e.milestone?.title, milestone, `the ${name} event names the milestone`, "/body/milestone/title");
      await verify(ctx, e, n);
    }
  }),
  kindCase("ISSUE-EVENTS-KIND-005", "renamed carries rename with from and to", async (ctx, n) => {
    const title = `Conformance title ${nonce()}`;
    const e = await happen(ctx, n, "renamed", kind(ctx, "renamed", { number: String(n), title }));
    check.equal(e.rename?.to, title, "rename.to is the new title", "/body/rename/to");
    check.ok(typeof e.rename?.from === "string" && e.rename.from !== title, "rename.from is the old title", { actual: e.rename?.from, pointer: "/body/rename/from" });
    await verify(ctx, e, n);
    const original = e.rename!.from;
    const back = await happen(ctx, n, "renamed", kind(ctx, "renamed", { number: String(n), title: original }));
    check.equal({ from: back.rename?.from, to: back.rename?.to }, { from: title, to: original }, "renaming back: rename is {from: new, to: old}", "/body/rename");
  }),
  kindCase("ISSUE-EVENTS-KIND-006", "locked and unlocked carry none of the kind fields", async (ctx, n) => {
    const got = await both(ctx, n, ["locked", kind(ctx, "locked", { number: String(n) })], ["unlocked", kind(ctx, "unlocked", { number: String(n) })]);
    for (const e of Object.values(got)) await verify(ctx, e, n);
  }),
  kindCase("ISSUE-EVENTS-KIND-007", "referenced carries the referencing commit's SHA in commit_id", async (ctx, n) => {
    const e = await happen(ctx, n, "referenced", kind(ctx, "referenced", { number: String(n) }));
    await verify(ctx, e, n);
  }),
  kindCase("ISSUE-EVENTS-KIND-008", "subscribed and mentioned carry none of the kind fields and no commit", async (ctx, n) => {
    for (const name of ["subscribed", "mentioned"]) await verify(ctx, await happen(ctx, n, name, kind(ctx, name, { number: String(n) })), n);
  }),
  kindCase("ISSUE-EVENTS-KIND-009", "merged carries the merged head commit's SHA in commit_id", async (ctx) => {
    const pull = await openPull(ctx);
    const e = await happen(ctx, pull.number, "merged", issuesPull(ctx, pull.number));
    // Which commit "the merged HEAD commit" is — the pull request's head or the merge commit — is
    // the contract's reading (D-ISSUE-MERGED-COMMIT); the seed's part, a commit SHA, is verify's.
    if (pull.headSha) ctx.rule("D-ISSUE-MERGED-COMMIT").equal(e.commit_id, pull.headSha, "commit_id is the pull request's head SHA (D-ISSUE-MERGED-COMMIT)", "/body/commit_id");
    else ctx.note("the opened event showed no head SHA: commit_id was checked to be a SHA only");
    await verify(ctx, e, pull.number);
  }),
  kindCase("ISSUE-EVENTS-KIND-010", "head_ref_deleted and head_ref_restored carry none of the kind fields", async (ctx) => {
    const pull = await openPull(ctx);
    for (const name of ["head_ref_deleted", "head_ref_restored"]) await verify(ctx, await happen(ctx, pull.number, name, kind(ctx, name, { number: String(pull.number) })), pull.number);
  }),
]);

function issuesPull(ctx: CaseContext, number: number): () => Promise<unknown> {
  return () => ctx.trigger("pull_request", { action: "merged", number: String(number) });
}
