/**
 * Seed data: `--seed demo` (demo.yaml beside this file), `--seed none`, or `--seed FILE` (YAML or
 * JSON in the format of fixture.schema.json). A fixture is checked against its schema before
 * anything is written, loaded in one transaction, and only into an empty database, so a restart
 * on the same data folder keeps what is there.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createAjv } from "../../generators/ajv.ts";
import type { ErrorObject, ValidateFunction } from "ajv";
import { parse } from "yaml";
import type { Database, Queryable } from "../db/database.ts";
import { ensureSecretKey } from "../hooks/secret-box.ts";
import { addOrgMember, createOrganization, createUser, type Account } from "../store/accounts.ts";
import { createApplication } from "../store/applications.ts";
import { packageFile } from "../../generators/package-files.ts";

export type SeedChoice = "demo" | "none" | (string & {});

export interface Fixture {
  users?: { login: string; password: string; name?: string; email?: string; site_admin?: boolean; two_factor?: { method: "app" | "sms"; secret: string } }[];
  organizations?: { login: string; name?: string; members?: { login: string; role?: "member" | "admin" }[] }[];
  follows?: { follower: string; followee: string }[];
  repositories?: {
    owner: string;
    name: string;
    description?: string | null;
    private?: boolean;
    default_branch?: string;
    fork_of?: string;
    watchers?: string[];
    collaborators?: { login: string; permission?: "pull" | "push" | "admin" }[];
  }[];
  issues?: { repo: string; number: number; title: string; body?: string | null; state?: "open" | "closed"; user: string; assignee?: string }[];
  applications?: { client_id: string; client_secret: string; name: string; url: string; callback_url: string; owner?: string; suspended?: boolean }[];
}

export const DEMO_FIXTURE = packageFile("reference", "seed", "demo.yaml");
const SCHEMA = JSON.parse(readFileSync(packageFile("reference", "seed", "fixture.schema.json"), "utf8")) as object;

/** Arbitrary, fixed: this application's seed lock among other advisory locks. */
const SEED_LOCK = 727_061_002;

export class FixtureError extends Error {
  override name = "FixtureError";
}

// Compiled once per process: a compile costs about 0.1 s, and a test file seeds dozens of servers.
let compiled: ValidateFunction | undefined;
function fixtureValidator(): ValidateFunction {
  return (compiled ??= createAjv([]).compile(SCHEMA));
}

export function readFixture(choice: SeedChoice): Fixture {
  const file = choice === "demo" ? DEMO_FIXTURE : choice;
  let data: unknown;
  try {
    data = parse(readFileSync(file, "utf8"));
  } catch (error) {
    // `--seed demoo` is most likely a typo of a keyword, not a missing file: name the choices.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new FixtureError(`--seed ${choice}: no such file; give demo, none or a fixture file (YAML or JSON)`);
    throw new FixtureError(`cannot read seed fixture ${file}: ${(error as Error).message}`);
  }
  const validate = fixtureValidator();
  if (!validate(data)) throw new FixtureError(`seed fixture ${file} is not valid: ${describeProblems(validate.errors ?? [])} (the format: reference/seed/README.md)`);
  return data as Fixture;
}

/** The schema node an Ajv schemaPath ("#/$defs/user/additionalProperties") points into, minus its last step. */
function schemaParent(schemaPath: string): Record<string, unknown> | undefined {
  let node: unknown = SCHEMA;
  for (const step of schemaPath.replace(/^#\//, "").split("/").slice(0, -1)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[step.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return node !== null && typeof node === "object" ? (node as Record<string, unknown>) : undefined;
}

/**
 * Ajv's errors as one line: the keys a place may not have are gathered into one problem that
 * names them and the keys it may have ("/ has unknown keys name, version; allowed: users, …"),
 * and repeated messages are said once, the first few only.
 */
function describeProblems(errors: readonly ErrorObject[]): string {
  const unknownKeys = new Map<string, { keys: string[]; allowed: string[] }>();
  const others: string[] = [];
  for (const e of errors) {
    const at = e.instancePath || "/";
    if (e.keyword === "additionalProperties") {
      const entry = unknownKeys.get(at) ?? { keys: [], allowed: Object.keys((schemaParent(e.schemaPath)?.properties as object | undefined) ?? {}) };
      entry.keys.push(String((e.params as { additionalProperty: string }).additionalProperty));
      unknownKeys.set(at, entry);
    } else {
      const line = `${at} ${e.message}`;
      if (!others.includes(line)) others.push(line);
    }
  }
  const problems = [
    ...[...unknownKeys].map(([at, { keys, allowed }]) => `${at} has unknown key${keys.length > 1 ? "s" : ""} ${keys.join(", ")}${allowed.length ? `; allowed: ${allowed.join(", ")}` : ""}`),
    ...others,
  ];
  const shown = problems.slice(0, 5);
  return shown.join("; ") + (problems.length > shown.length ? `; and ${problems.length - shown.length} more` : "");
}

async function load(tx: Queryable, fixture: Fixture): Promise<void> {
  const accounts = new Map<string, Account>();
  const account = (login: string): Account => {
    const a = accounts.get(login.toLowerCase());
    if (!a) throw new FixtureError(`seed fixture names unknown login "${login}"`);
    return a;
  };
  for (const u of fixture.users ?? []) {
    accounts.set(u.login.toLowerCase(), await createUser(tx, { login: u.login, password: u.password, name: u.name, email: u.email, siteAdmin: u.site_admin, twoFactor: u.two_factor }));
  }
  for (const o of fixture.organizations ?? []) {
    const org = await createOrganization(tx, { login: o.login, name: o.name });
    accounts.set(o.login.toLowerCase(), org);
    for (const m of o.members ?? []) await addOrgMember(tx, org.id, account(m.login).id, m.role ?? "member");
  }
  for (const f of fixture.follows ?? []) {
    await tx.query("insert into follows (follower_id, followee_id) values ($1, $2) on conflict do nothing", [account(f.follower).id, account(f.followee).id]);
  }
  const repos = new Map<string, number>();
  const repo = (fullName: string): number => {
    const id = repos.get(fullName.toLowerCase());
    if (id === undefined) throw new FixtureError(`seed fixture names unknown repository "${fullName}"`);
    return id;
  };
  for (const r of fixture.repositories ?? []) {
    const rows = await tx.query<{ id: number }>(
      `insert into repositories (owner_id, name, description, private, default_branch, fork_of, pushed_at)
       values ($1, $2, $3, $4, $5, $6, now()) returning id`,
      [account(r.owner).id, r.name, r.description ?? null, r.private ?? false, r.default_branch ?? "main", r.fork_of ? repo(r.fork_of) : null],
    );
    const id = rows[0]!.id;
    repos.set(`${r.owner}/${r.name}`.toLowerCase(), id);
    for (const c of r.collaborators ?? []) {
      await tx.query("insert into collaborators (repo_id, user_id, permission) values ($1, $2, $3)", [id, account(c.login).id, c.permission ?? "push"]);
    }
    for (const w of r.watchers ?? []) await tx.query("insert into watches (user_id, repo_id) values ($1, $2) on conflict do nothing", [account(w).id, id]);
  }
  for (const i of fixture.issues ?? []) {
    await tx.query(
      `insert into issues (repo_id, number, title, body, state, user_id, assignee_id, closed_at)
       values ($1, $2, $3, $4, $5, $6, $7, case when $5 = 'closed' then now() end)`,
      [repo(i.repo), i.number, i.title, i.body ?? null, i.state ?? "open", account(i.user).id, i.assignee ? account(i.assignee).id : null],
    );
  }
  for (const a of fixture.applications ?? []) {
    await createApplication(tx, {
      clientId: a.client_id,
      clientSecret: a.client_secret,
      name: a.name,
      url: a.url,
      callbackUrl: a.callback_url,
      ownerId: a.owner ? account(a.owner).id : undefined,
      suspended: a.suspended,
    });
  }
}

/** Loads the fixture when the database has no accounts yet; returns whether it loaded. */
export async function seedDatabase(db: Database, choice: SeedChoice): Promise<boolean> {
  if (choice === "none") return false;
  const fixture = readFixture(choice);
  // TOTP seeds are sealed as they are stored: the key must exist outside the transaction (secret-box.ts).
  await ensureSecretKey(db);
  return db.transaction(async (tx) => {
    // Instances starting together on one PostgreSQL: one seeds, the others then see accounts.
    if (db.kind === "postgres") await tx.query("select pg_advisory_xact_lock($1)", [SEED_LOCK]);
    const [{ n }] = (await tx.query<{ n: number }>("select count(*)::int as n from accounts")) as [{ n: number }];
    if (n > 0) return false;
    await load(tx, fixture);
    return true;
  });
}
