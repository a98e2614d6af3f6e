// model.ts — in-memory data model: record types, the store, the request context and lookup/access helpers.

export interface User { id: number; login: string; password: string; name: string; email: string; totpSecret: string | null; following: Set<number>; createdAt: number }
export interface Org { id: number; login: string; description: string; admins: Set<number>; members: Set<number>; createdAt: number }
export interface PushRecord { ref: string; before: string; after: string; commits: { sha: string; message: string; timestamp: number }[]; actorId: number }
export interface Repo {
  id: number; owner: string; ownerId: number; isOrg: boolean; name: string; private: boolean; description: string;
  collaborators: Set<number>; watchers: Set<number>; forkOf: number | null; createdAt: number; pushedAt: number;
  defaultBranch: string; lastPush: PushRecord | null; labels: Map<string, string>;
}
export interface Milestone { id: number; repoId: number; number: number; title: string; description: string; state: string; creatorId: number; createdAt: number; closedAt: number | null; dueOn: number | null }
export interface Issue {
  id: number; repoId: number; number: number; title: string; body: string; state: "open" | "closed"; userId: number;
  assigneeId: number | null; labels: string[]; milestoneId: number | null; locked: boolean; comments: number;
  isPull: boolean; merged: boolean; closedAt: number | null; createdAt: number; updatedAt: number;
}
export interface IssueEvent {
  id: number; repoId: number; issueId: number; actorId: number; event: string; commitId: string | null; createdAt: number;
  label?: { name: string; color: string }; assigneeId?: number; milestoneTitle?: string; rename?: { from: string; to: string };
}
export interface Activity { id: number; type: string; public: boolean; actorId: number; repoId: number | null; orgId: number | null; payload: Record<string, unknown>; createdAt: number }
export interface App { id: number; clientId: string; clientSecret: string; name: string; url: string; callbackUrl: string; suspended: boolean }
export interface Authz {
  id: number; userId: number; appId: number | null; tokenHash: string; lastEight: string; scopes: string[];
  note: string | null; noteUrl: string | null; fingerprint: string | null; createdAt: number; updatedAt: number; seed: boolean;
}
export interface Grant { id: number; userId: number; appId: number; scopes: string[]; createdAt: number; updatedAt: number; seed: boolean }
export interface Code { code: string; appId: number; userId: number; scopes: string[]; expiresAt: number; used: boolean }
export interface HookResponse { code: number | null; status: string; message: string | null }
export interface Hook {
  id: number; kind: "repo" | "org"; targetId: number; name: string; events: string[]; active: boolean;
  config: Record<string, string>; createdAt: number; updatedAt: number; appId: number | null; lastResponse: HookResponse; seed: boolean;
}
export interface Session { id: string; csrf: string; userId: number | null; pending2fa: number | null }

export interface Store {
  users: User[]; orgs: Org[]; repos: Repo[]; issues: Issue[]; milestones: Milestone[]; issueEvents: IssueEvent[];
  activities: Activity[]; apps: App[]; authz: Authz[]; grants: Grant[]; codes: Map<string, Code>; hooks: Hook[];
  sessions: Map<string, Session>; buckets: Map<string, { used: number; resetAt: number }>; seq: Map<string, number>;
}

export interface Ctx {
  store: Store; api: string; web: string; adminKey: string;
  deliver: (hook: Hook, event: string, payload: Record<string, unknown>) => void;
}

export function createStore(): Store {
  return {
    users: [], orgs: [], repos: [], issues: [], milestones: [], issueEvents: [], activities: [], apps: [], authz: [],
    grants: [], codes: new Map(), hooks: [], sessions: new Map(), buckets: new Map(), seq: new Map(),
  };
}

/** Next id of a kind; users and organizations share one id space, as accounts. */
export function nextId(s: Store, kind: string, start = 1): number {
  const n = (s.seq.get(kind) ?? start - 1) + 1;
  s.seq.set(kind, n);
  return n;
}

const lc = (x: string): string => x.toLowerCase();
export const userByLogin = (s: Store, login: string): User | undefined => s.users.find((u) => lc(u.login) === lc(login));
export const userById = (s: Store, id: number): User | undefined => s.users.find((u) => u.id === id);
export const orgByLogin = (s: Store, login: string): Org | undefined => s.orgs.find((o) => lc(o.login) === lc(login));
export const orgById = (s: Store, id: number): Org | undefined => s.orgs.find((o) => o.id === id);
export const repoById = (s: Store, id: number): Repo | undefined => s.repos.find((r) => r.id === id);
export const repoByName = (s: Store, owner: string, name: string): Repo | undefined =>
  s.repos.find((r) => lc(r.owner) === lc(owner) && lc(r.name) === lc(name));
export const appByClientId = (s: Store, clientId: string): App | undefined => s.apps.find((a) => a.clientId === clientId);
export const fullName = (r: Repo): string => `${r.owner}/${r.name}`;

export function orgOfRepo(s: Store, r: Repo): Org | null {
  return r.isOrg ? orgById(s, r.ownerId) ?? null : null;
}
export function canRead(s: Store, u: User | null, r: Repo): boolean {
  if (!r.private) return true;
  if (!u) return false;
  if (r.ownerId === u.id || r.collaborators.has(u.id)) return true;
  const o = orgOfRepo(s, r);
  return !!o && (o.members.has(u.id) || o.admins.has(u.id));
}
export function canAdmin(s: Store, u: User, r: Repo): boolean {
  if (r.ownerId === u.id) return true;
  const o = orgOfRepo(s, r);
  return !!o && o.admins.has(u.id);
}
export const isOrgMember = (o: Org, u: User): boolean => o.members.has(u.id) || o.admins.has(u.id);
