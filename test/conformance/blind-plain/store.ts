// store.ts — the in-memory data model (users, orgs, repositories, apps, tokens, grants, events, issues, hooks, sessions).
import { normalize } from "./scopes.ts";
import { randomHex, sha256Hex } from "./util.ts";

export interface User { id: number; login: string; password: string; totpSecret?: string; email: string; following: Set<string>; watching: Set<string> }
export interface Org { id: number; login: string; admins: Set<string>; members: Set<string> }
export interface Repo {
  id: number; owner: string; name: string; private: boolean; description: string; collaborators: Set<string>;
  forkOf?: string; createdAt: Date; heads: Map<string, string>; lastPush?: Record<string, unknown>;
}
export interface App { id: number; name: string; clientId: string; clientSecret: string; callbackUrl: string; url: string; suspended: boolean }
export interface Authorization {
  id: number; token: string; login: string; scopes: string[]; clientId: string | null; note: string | null;
  noteUrl: string | null; fingerprint: string | null; createdAt: Date; updatedAt: Date; seed: boolean;
}
export interface Grant { id: number; login: string; clientId: string; scopes: string[]; createdAt: Date; updatedAt: Date }
export interface Code { clientId: string; login: string; scopes: string[]; expires: number }
export interface ActivityEvent { id: string; type: string; actor: string; repo: string; org?: string; public: boolean; payload: Record<string, unknown>; createdAt: Date }
export interface Milestone { number: number; title: string; description: string; state: string; creator: string; createdAt: Date; dueOn: Date | null }
export interface Issue {
  id: number; repo: string; number: number; title: string; body: string; state: "open" | "closed"; user: string;
  assignee: string | null; labels: string[]; milestone: number | null; comments: number; isPull: boolean; locked: boolean;
  closedAt: Date | null; createdAt: Date; updatedAt: Date; headRef: string; merged: boolean; mergeSha: string | null;
}
export interface IssueEvent {
  id: number; repo: string; issue: number; actor: string; event: string; commitId?: string; createdAt: Date;
  label?: { name: string; color: string }; assignee?: string; milestone?: string; rename?: { from: string; to: string };
}
export interface Hook {
  id: number; scope: "repo" | "org"; target: string; name: string; events: string[]; active: boolean;
  config: Record<string, string>; createdAt: Date; updatedAt: Date; byApp: string | null;
}
export interface Session { id: string; csrf: string; login?: string; pending2fa?: string; returnTo?: string }

export const fullName = (r: Repo): string => `${r.owner}/${r.name}`;

export class Store {
  readonly users = new Map<string, User>();
  readonly orgs = new Map<string, Org>();
  readonly repos = new Map<string, Repo>();
  readonly apps = new Map<string, App>();
  readonly auths = new Map<number, Authorization>();
  readonly grants = new Map<number, Grant>();
  readonly codes = new Map<string, Code>();
  readonly sessions = new Map<string, Session>();
  readonly events: ActivityEvent[] = []; // oldest first
  readonly issues = new Map<string, Issue>();
  readonly issueEvents: IssueEvent[] = []; // oldest first
  readonly milestones = new Map<string, Milestone>();
  readonly hooks = new Map<number, Hook>();
  readonly labelColors = new Map<string, string>([["bug", "fc2929"], ["enhancement", "84b6eb"], ["question", "cc317c"]]);
  private readonly tokenIndex = new Map<string, number>();
  private readonly seq = new Map<string, number>();

  next(kind: string, start = 1): number {
    const n = (this.seq.get(kind) ?? start - 1) + 1;
    this.seq.set(kind, n);
    return n;
  }

  user(login: string | null | undefined): User | undefined { return login ? this.users.get(login.toLowerCase()) : undefined; }
  org(login: string | null | undefined): Org | undefined { return login ? this.orgs.get(login.toLowerCase()) : undefined; }
  repo(full: string | null | undefined): Repo | undefined { return full ? this.repos.get(full.toLowerCase()) : undefined; }
  repoOf(owner: string | undefined, name: string | undefined): Repo | undefined { return this.repo(`${owner ?? ""}/${name ?? ""}`); }
  addRepo(r: Repo): Repo { this.repos.set(fullName(r).toLowerCase(), r); return r; }

  /** Whether the user may see the repository at all (scopes aside). */
  canSee(login: string | null | undefined, r: Repo): boolean {
    if (!r.private) return true;
    if (!login) return false;
    return this.isAdmin(login, r) || r.collaborators.has(login.toLowerCase());
  }

  isAdmin(login: string, r: Repo): boolean {
    if (r.owner.toLowerCase() === login.toLowerCase()) return true;
    return this.org(r.owner)?.admins.has(login.toLowerCase()) ?? false;
  }

  issue(repo: string, n: number): Issue | undefined { return this.issues.get(`${repo.toLowerCase()}#${n}`); }
  addIssue(i: Issue): Issue { this.issues.set(`${i.repo.toLowerCase()}#${i.number}`, i); return i; }
  issuesOf(repo: string): Issue[] { return [...this.issues.values()].filter((i) => i.repo === repo); }

  addIssueEvent(e: Omit<IssueEvent, "id">): IssueEvent {
    const ev = { id: this.next("issue-event", 1000), ...e };
    this.issueEvents.push(ev);
    return ev;
  }

  milestone(repo: string, n: number): Milestone | undefined { return this.milestones.get(`${repo.toLowerCase()}#${n}`); }
  milestoneByTitle(repo: string, title: string, creator: string): Milestone {
    for (const [k, m] of this.milestones) if (k.startsWith(`${repo.toLowerCase()}#`) && m.title === title) return m;
    const n = this.next(`milestone:${repo.toLowerCase()}`);
    const m: Milestone = { number: n, title, description: "", state: "open", creator, createdAt: new Date(), dueOn: null };
    this.milestones.set(`${repo.toLowerCase()}#${n}`, m);
    return m;
  }

  // --- tokens and grants -------------------------------------------------------------------------

  createAuth(o: { login: string; scopes: string[]; clientId?: string | null; note?: string | null; noteUrl?: string | null; fingerprint?: string | null; seed?: boolean }): Authorization {
    const now = new Date();
    const a: Authorization = {
      id: this.next("auth"), token: randomHex(20), login: o.login, scopes: normalize(o.scopes), clientId: o.clientId ?? null,
      note: o.note ?? null, noteUrl: o.noteUrl ?? null, fingerprint: o.fingerprint ?? null, createdAt: now, updatedAt: now, seed: o.seed ?? false,
    };
    this.auths.set(a.id, a);
    this.tokenIndex.set(sha256Hex(a.token), a.id);
    if (a.clientId) this.touchGrant(a.login, a.clientId, a.scopes);
    return a;
  }

  authByToken(token: string): Authorization | undefined {
    const id = this.tokenIndex.get(sha256Hex(token));
    return id === undefined ? undefined : this.auths.get(id);
  }

  resetToken(a: Authorization): void {
    this.tokenIndex.delete(sha256Hex(a.token));
    a.token = randomHex(20);
    a.updatedAt = new Date();
    this.tokenIndex.set(sha256Hex(a.token), a.id);
  }

  authsFor(login: string, clientId: string): Authorization[] {
    return [...this.auths.values()].filter((a) => a.login === login && a.clientId === clientId);
  }

  deleteAuth(a: Authorization): void {
    this.auths.delete(a.id);
    this.tokenIndex.delete(sha256Hex(a.token));
    if (a.clientId) this.refreshGrant(a.login, a.clientId);
  }

  grantFor(login: string, clientId: string): Grant | undefined {
    for (const g of this.grants.values()) if (g.login === login && g.clientId === clientId) return g;
    return undefined;
  }

  touchGrant(login: string, clientId: string, scopes: string[]): Grant {
    const now = new Date();
    let g = this.grantFor(login, clientId);
    if (!g) {
      g = { id: this.next("grant"), login, clientId, scopes: normalize(scopes), createdAt: now, updatedAt: now };
      this.grants.set(g.id, g);
    } else {
      g.scopes = normalize([...g.scopes, ...scopes]);
      g.updatedAt = now;
    }
    return g;
  }

  /** Recomputes a grant from its tokens; a grant without tokens is gone. */
  refreshGrant(login: string, clientId: string): void {
    const g = this.grantFor(login, clientId);
    if (!g) return;
    const tokens = this.authsFor(login, clientId);
    if (tokens.length === 0) this.grants.delete(g.id);
    else g.scopes = normalize(tokens.flatMap((t) => t.scopes));
  }

  deleteGrant(g: Grant): void {
    for (const a of this.authsFor(g.login, g.clientId)) {
      this.auths.delete(a.id);
      this.tokenIndex.delete(sha256Hex(a.token));
    }
    this.grants.delete(g.id);
  }
}
