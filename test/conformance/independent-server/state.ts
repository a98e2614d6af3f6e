/**
 * The independent server's data, in memory: users, an OAuth application, an organization, three
 * repositories, an issue with its events, activity events (a history older than 90 days
 * included), hooks, tokens and grants. Written from the seed alone (no code of the project's):
 * where the seed says "not shown", this server made its own choices (README of the folder's
 * profile.ts lists them). Everything here is plain objects; the modules beside it serve them.
 */
import { randomBytes, randomUUID } from "node:crypto";

export interface User {
  id: number;
  login: string;
  password: string;
  /** Base32 TOTP secret: two-factor on. */
  totp?: string;
  type: "User" | "Organization";
}

export interface Token {
  value: string;
  userId: number;
  scopes: string[];
  /** The application it came from (web flow); undefined: a personal token. */
  clientId?: string;
  /** Made by the non-web flow: its id there. */
  authorizationId?: number;
  note?: string;
  /** Created for the conformance run's own profile (not by the suite). */
  fixture?: boolean;
}

export interface Repo {
  id: number;
  owner: string;
  name: string;
  private: boolean;
}

export interface ActivityEvent {
  id: string;
  type: string;
  public: boolean;
  payload: Record<string, unknown>;
  repoId: number;
  actorId: number;
  createdAt: Date;
}

export interface IssueEvent {
  id: number;
  repoId: number;
  issueNumber: number;
  actorId: number;
  event: string;
  extra: Record<string, unknown>;
  createdAt: Date;
}

export interface Issue {
  id: number;
  repoId: number;
  number: number;
  title: string;
  state: "open" | "closed";
  userId: number;
  labels: { name: string; color: string }[];
  assigneeId?: number;
  milestone?: { number: number; title: string };
  locked: boolean;
  pull: boolean;
  closedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface Hook {
  id: number;
  /** repo id, or the org's login. */
  place: { repoId: number } | { org: string };
  name: string;
  events: string[];
  active: boolean;
  config: Record<string, string>;
  /** Who made it: the token's application or none (personal). */
  createdBy: { userId: number; clientId?: string };
  createdAt: Date;
  updatedAt: Date;
}

export interface Grant {
  userId: number;
  clientId: string;
  scopes: string[];
}

export interface Code {
  code: string;
  userId: number;
  clientId: string;
  scopes: string[];
  redirectUri?: string;
  expires: number;
}

export const APP = { clientId: "indie-app-7f3a", clientSecret: randomBytes(16).toString("hex"), callbackUrl: "http://127.0.0.1:9/oauth/return", name: "Indie Tester" };
export const SUSPENDED_APP = { clientId: "indie-suspended-01", clientSecret: randomBytes(16).toString("hex"), callbackUrl: "http://127.0.0.1:9/suspended/return" };

/** The service hooks this server offers: name, the events each takes, its options. */
export const SERVICES: Record<string, { events: string[]; options: string[] }> = {
  buildbot: { events: ["push", "create", "delete"], options: ["address", "secret_word"] },
  chatroom: { events: ["push", "issues", "issue_comment", "pull_request"], options: ["room", "nickname"] },
};

export class State {
  users: User[] = [];
  tokens = new Map<string, Token>();
  repos: Repo[] = [];
  orgs = new Map<string, { id: number; login: string; admins: number[] }>();
  events: ActivityEvent[] = [];
  issues: Issue[] = [];
  issueEvents: IssueEvent[] = [];
  hooks: Hook[] = [];
  grants: Grant[] = [];
  codes = new Map<string, Code>();
  sessions = new Map<string, { userId?: number; csrf: string }>();
  /** Non-web flow OTP codes already used, per user, so a code works once. */
  usedOtp = new Map<number, Set<string>>();
  private seq = 1000;
  private authorizationSeq = 1;

  next(): number {
    return ++this.seq;
  }

  nextAuthorization(): number {
    return this.authorizationSeq++;
  }

  user(login: string): User | undefined {
    return this.users.find((u) => u.login.toLowerCase() === login.toLowerCase());
  }

  userById(id: number): User {
    return this.users.find((u) => u.id === id)!;
  }

  repo(owner: string, name: string): Repo | undefined {
    return this.repos.find((r) => r.owner.toLowerCase() === owner.toLowerCase() && r.name.toLowerCase() === name.toLowerCase());
  }

  repoById(id: number): Repo {
    return this.repos.find((r) => r.id === id)!;
  }

  /** Whether `userId` may see the repository (owner, or admin of its organization). */
  canSee(repo: Repo, userId: number | undefined): boolean {
    if (!repo.private) return true;
    if (userId === undefined) return false;
    return this.administers(repo, userId);
  }

  administers(repo: Repo, userId: number): boolean {
    const owner = this.user(repo.owner);
    if (owner?.id === userId) return true;
    return this.orgs.get(repo.owner.toLowerCase())?.admins.includes(userId) ?? false;
  }

  newToken(userId: number, scopes: string[], extra: Partial<Token> = {}): Token {
    const token: Token = { value: `indie_${randomBytes(18).toString("hex")}`, userId, scopes, ...extra };
    this.tokens.set(token.value, token);
    return token;
  }

  /** An opaque activity event id (this server's choice: no order in it). */
  addEvent(e: Omit<ActivityEvent, "id" | "createdAt"> & { createdAt?: Date }): ActivityEvent {
    const event: ActivityEvent = { id: `evt-${randomUUID()}`, createdAt: e.createdAt ?? new Date(), ...e };
    this.events.push(event);
    return event;
  }

  addIssueEvent(e: Omit<IssueEvent, "id" | "createdAt"> & { createdAt?: Date }): IssueEvent {
    const event: IssueEvent = { id: this.next(), createdAt: e.createdAt ?? new Date(), ...e };
    this.issueEvents.push(event);
    return event;
  }
}

const DAY = 24 * 3600 * 1000;

/** The fixture: who and what exists when the server starts. */
export function seedState(): State {
  const s = new State();
  const add = (login: string, type: User["type"] = "User", totp?: string): User => {
    const u: User = { id: s.next(), login, password: `${login}-pw-${randomBytes(6).toString("hex")}`, type, ...(totp ? { totp } : {}) };
    s.users.push(u);
    return u;
  };
  const ada = add("ada");
  const bob = add("bob");
  add("cyd", "User", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
  const guild = add("guild", "Organization");
  s.orgs.set("guild", { id: guild.id, login: "guild", admins: [ada.id] });
  const playground: Repo = { id: s.next(), owner: "ada", name: "playground", private: false };
  const strongbox: Repo = { id: s.next(), owner: "ada", name: "strongbox", private: true };
  const commons: Repo = { id: s.next(), owner: "guild", name: "commons", private: false };
  s.repos.push(playground, strongbox, commons);

  const now = Date.now();
  // A history: enough public events for ten pages and more, a few older than 90 days.
  for (let i = 0; i < 340; i++) {
    const repo = i % 5 === 0 ? commons : playground;
    const createdAt = new Date(now - (i < 6 ? 100 + i : 1 + i / 10) * DAY);
    s.addEvent({ type: "WatchEvent", public: true, payload: { action: "started" }, repoId: repo.id, actorId: i % 2 ? bob.id : ada.id, createdAt });
  }
  for (let i = 0; i < 5; i++) s.addEvent({ type: "PushEvent", public: false, payload: pushPayload("refs/heads/main"), repoId: strongbox.id, actorId: ada.id, createdAt: new Date(now - (2 + i) * 3600 * 1000) });

  const issue: Issue = { id: s.next(), repoId: playground.id, number: 1, title: "First issue", state: "open", userId: ada.id, labels: [], locked: false, pull: false, createdAt: new Date(now - 130 * DAY), updatedAt: new Date(now - 60 * DAY) };
  s.issues.push(issue);
  // Issue events of every kind the seed lists, for the lists to show.
  const sha = "5f1e5b3a0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f";
  const kinds: [string, Record<string, unknown>][] = [
    ["subscribed", {}],
    ["mentioned", {}],
    ["labeled", { label: { name: "bug", color: "d73a4a" } }],
    ["unlabeled", { label: { name: "bug", color: "d73a4a" } }],
    ["assigned", { assigneeId: ada.id }],
    ["unassigned", { assigneeId: ada.id }],
    ["milestoned", { milestone: { title: "v1" } }],
    ["demilestoned", { milestone: { title: "v1" } }],
    ["renamed", { rename: { from: "First", to: "First issue" } }],
    ["referenced", { commit_id: sha }],
    ["closed", { commit_id: sha }],
    ["reopened", {}],
    ["locked", {}],
    ["unlocked", {}],
  ];
  // Two older than the feeds' 90-day window, which the issue-event lists still show.
  s.addIssueEvent({ repoId: playground.id, issueNumber: 1, actorId: ada.id, event: "subscribed", extra: {}, createdAt: new Date(now - 120 * DAY) });
  s.addIssueEvent({ repoId: playground.id, issueNumber: 1, actorId: ada.id, event: "mentioned", extra: {}, createdAt: new Date(now - 119 * DAY) });
  for (let round = 0; round < 3; round++)
    kinds.forEach(([event, extra], i) => s.addIssueEvent({ repoId: playground.id, issueNumber: 1, actorId: ada.id, event, extra, createdAt: new Date(now - (50 - round * 10) * DAY + i * 60_000) }));
  return s;
}

export function pushPayload(ref: string): Record<string, unknown> {
  const sha = randomBytes(20).toString("hex");
  return { push_id: Date.now(), size: 1, distinct_size: 1, ref, head: sha, before: "0".repeat(40), commits: [{ sha, message: "A commit", author: { name: "Ada", email: "ada@indie.test" }, url: `https://indie.test/commits/${sha}`, distinct: true }] };
}
