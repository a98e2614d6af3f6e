/**
 * A realistic demo history: `count` actions (default 400) spread over the `days` (default 180)
 * before `now`, oldest first, so feeds have months of events — some beyond the 90-day window —
 * and issues have timelines. Deterministic: a seeded PRNG picks repository, actor and action,
 * and every action goes through the domain layer (a savepoint each, in one transaction).
 * Does nothing when the database already has events (a restart keeps its history).
 *
 * Event bodies embed URLs at record time: pass the server's public `urls`.
 */
import type { Database, Queryable } from "../db/database.ts";
import type { Urls } from "../context.ts";
import { DomainError, runAction, type DomainContext } from "../domain/index.ts";

/** How many actions `serve` and `simulate` record when they seed the demo: a realistic demo that records in about 10 s. */
export const DEMO_HISTORY_COUNT = 300;

export interface HistoryOptions {
  now: Date;
  count?: number;
  days?: number;
  seed?: number;
  urls?: Urls;
}

/** mulberry32: tiny, fast, good enough to vary a demo, and the same on every machine. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Issue {
  number: number;
  state: string;
  pull_request: boolean;
}

interface RepoAccess {
  id: number;
  full: string;
  writers: string[];
  others: string[];
}

async function repositories(db: Database): Promise<RepoAccess[]> {
  const users = (await db.query<{ login: string }>("select login from accounts where type = 'User' order by id")).map((u) => u.login);
  const repos = await db.query<{ id: number; full: string; writers: string[] | null }>(
    `select r.id, o.login || '/' || r.name as full,
            array(select a.login from accounts a where a.id = r.owner_id and a.type = 'User'
                  union select a.login from collaborators c join accounts a on a.id = c.user_id where c.repo_id = r.id
                  union select a.login from org_members m join accounts a on a.id = m.user_id where m.org_id = r.owner_id) as writers
     from repositories r join accounts o on o.id = r.owner_id where r.fork_of is null order by r.id`,
  );
  return repos
    .filter((r) => (r.writers ?? []).length > 0)
    .map((r) => ({ id: r.id, full: r.full, writers: [...r.writers!].sort(), others: users.filter((u) => !r.writers!.includes(u)) }));
}

/** Weighted choice of what happens next, with its parameters; the issue numbers come from the repository's state. */
const PLAN: [number, string][] = [
  [30, "push"],
  [12, "issues"],
  [14, "issue_comment"],
  [8, "issue_change"],
  [5, "create"],
  [3, "delete"],
  [6, "pull_request"],
  [4, "pull_change"],
  [3, "watch"],
  [2, "fork"],
  [3, "issue_kind"],
  // Parameterless events (the action picks sensible defaults).
  [2, "status"],
  [1, "commit_comment"],
  [1, "release"],
  [1, "gollum"],
  [1, "deployment"],
  [1, "deployment_status"],
  [1, "page_build"],
];

/** Arbitrary, fixed: the history's advisory lock, apart from the seed's (load.ts) and others. */
const HISTORY_LOCK = 7_240_318;

/**
 * The whole history is one transaction, and each action a savepoint in it: an action that fails
 * rolls back alone, as its own transaction would, but 300 commits (each a WAL flush) become one.
 * Readers see no history or all of it, and a second instance on the same PostgreSQL waits on the
 * lock, then finds the events and records nothing.
 */
export async function seedHistory(db: Database, options: HistoryOptions): Promise<number> {
  return db.transaction(async (tx) => {
    if (db.kind === "postgres") await tx.query("select pg_advisory_xact_lock($1)", [HISTORY_LOCK]);
    return recordHistory(inTransaction(db.kind, tx), options);
  });
}

/** A Database whose transactions are savepoints of the one `tx` is in. */
function inTransaction(kind: Database["kind"], tx: Queryable): Database {
  return {
    kind,
    query: (sql, params) => tx.query(sql, params),
    exec: (sql) => tx.exec(sql),
    async transaction(fn) {
      await tx.query("savepoint history_action");
      try {
        const result = await fn(tx);
        await tx.query("release savepoint history_action");
        return result;
      } catch (error) {
        await tx.query("rollback to savepoint history_action");
        await tx.query("release savepoint history_action");
        throw error;
      }
    },
    close: () => Promise.reject(new Error("the history's database is closed by its owner")),
  };
}

async function recordHistory(db: Database, options: HistoryOptions): Promise<number> {
  const [{ n }] = (await db.query<{ n: number }>("select count(*)::int as n from events")) as [{ n: number }];
  if (n > 0) return 0;
  const random = prng(options.seed ?? 20_150_101);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const count = options.count ?? 400;
  const span = (options.days ?? 180) * 86_400_000;
  const start = options.now.getTime() - span;
  const ctx: DomainContext = { db, urls: options.urls ?? { api: "http://127.0.0.1:3000", auth: "http://127.0.0.1:3001" }, now: () => options.now };
  const repos = await repositories(db);
  if (repos.length === 0) return 0;
  // The seed's rows were made just now; the history starts before them otherwise.
  const from = new Date(start - 86_400_000).toISOString();
  await db.query("update accounts set created_at = $1", [from]);
  await db.query("update repositories set created_at = $1, updated_at = $1, pushed_at = $1", [from]);
  await db.query("update issues set created_at = $1, updated_at = $1, closed_at = case when state = 'closed' then $1::timestamptz end", [from]);
  const total = PLAN.reduce((s, [w]) => s + w, 0);
  let recorded = 0;
  for (let i = 0; i < count; i++) {
    // Evenly spread with jitter, strictly increasing so ids follow time.
    const at = new Date(Math.floor(start + ((i + 0.2 + random() * 0.6) * span) / count));
    const repo = pick(repos);
    let roll = random() * total;
    const kind = PLAN.find(([w]) => (roll -= w) < 0)?.[1] ?? "push";
    const actor = (kind === "watch" || kind === "fork") && repo.others.length > 0 ? pick(repo.others) : pick(repo.writers);
    // The repository's issues, read only by the choices that pick one (about a third of them):
    // each read is a round trip, and when it happens draws nothing from the PRNG.
    let read: Issue[] | undefined;
    const issues = async (): Promise<Issue[]> => (read ??= await db.query<Issue>("select number, state, pull_request from issues where repo_id = $1 order by number", [repo.id]));
    const plainIssues = async () => (await issues()).filter((x) => !x.pull_request);
    const openPulls = async () => (await issues()).filter((x) => x.pull_request && x.state === "open");
    let event = kind;
    let params: Record<string, string> = {};
    switch (kind) {
      case "push": {
        const commits = String(1 + Math.floor(random() * 4));
        const fixes = random() < 0.1 ? await plainIssues() : [];
        params = { commits, ...(fixes.length ? { message: `Fixes #${pick(fixes).number}` } : {}) };
        break;
      }
      case "issues":
        params = { title: pick(["Crash on start", "Typo in docs", "Add dark mode", "Slow search", "Broken link", "Support Node 20"]), body: random() < 0.3 ? `cc @${pick(repo.writers)}` : "Steps to reproduce inside." };
        break;
      case "issue_comment": {
        const all = await issues();
        if (!all.length) event = "push";
        else params = { number: String(pick(all).number), body: pick(["+1", "I can reproduce this.", "Fixed in main, please check.", "Any news?"]) };
        break;
      }
      case "issue_change": {
        const plain = await plainIssues();
        if (!plain.length) { event = "push"; break; }
        const issue = pick(plain);
        event = "issues";
        const action = issue.state === "closed" ? "reopened" : pick(["closed", "closed", "assigned", "labeled", "labeled"]);
        params = { action, number: String(issue.number), label: pick(["bug", "enhancement", "question", "docs"]), assignee: pick(repo.writers) };
        break;
      }
      case "pull_request":
        params = { title: pick(["Add tests", "Refactor parser", "Update dependencies", "Fix race in cache"]) };
        break;
      case "pull_change": {
        const pulls = await openPulls();
        if (!pulls.length) { event = "push"; break; }
        event = "pull_request";
        params = { action: pick(["merged", "merged", "closed"]), number: String(pick(pulls).number) };
        break;
      }
      case "issue_kind": {
        const plain = await plainIssues();
        if (!plain.length) { event = "push"; break; }
        event = pick(["subscribed", "locked", "milestoned", "renamed", "referenced"]);
        params = { number: String(pick(plain).number), title: "Renamed for clarity", milestone: pick(["v1.0", "v1.1"]) };
        break;
      }
    }
    try {
      const r = await runAction(ctx, event, { repo: repo.full, actor, params, at });
      recorded += r.events.length;
    } catch (error) {
      // A choice the state does not allow (watch twice, lock a locked issue): skip it, as a user would.
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return recorded;
}
