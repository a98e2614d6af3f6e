/**
 * The bad inputs one robustness case sends: a fixed number per operation, drawn with fast-check
 * from a seed derived from the operation ID, so every run of the suite sends the same requests
 * and a failure can be reproduced. Each input breaks one thing of an otherwise ordinary request
 * — a path parameter, a query parameter, the body, or the credentials — and says which, for the
 * report. Ordinary values come from the profile where a real resource is harmless (the public
 * repository, the organization, users[0]) and are ids that cannot exist otherwise: no input can
 * reach a real hook, delivery or authorization, so nothing of the profile's data is changed.
 */
import fc from "fast-check";
import { validateRequest } from "../../../generated/validators/index.js";
import type { Profile } from "../../core/profile.ts";
import type { OperationModel, ParameterModel } from "./operations.ts";
import { badBasic, badPathValue, badQueryValue, badToken, type PathValue, type QueryValue } from "./arbitraries.ts";
import { baseBody, rawBodies, structuredBodies, type BodyInput } from "./bodies.ts";
import type { InputPart } from "./verdict.ts";

/**
 * Bad inputs per operation: enough to vary every parameter, few enough that the whole area stays
 * within a few hundred requests of users[0]'s hourly rate limit. Operations authenticated with
 * users[0]'s password get fewer: a server hashes the password on each one, on purpose slowly.
 */
export const INPUTS_PER_OPERATION = 20;
export const INPUTS_WITH_PASSWORD = 12;
/** Of those, garbage credentials (each a 401 on a correct target). */
const CREDENTIAL_INPUTS = 2;
/**
 * The operations whose case also sends garbage credentials, and paths refused before the
 * credentials are read: one per way of authenticating (a token, Basic of a user, Basic of an
 * application) and the one that works anonymously. A request
 * with bad credentials is counted against the client address on many targets, whose anonymous
 * limit is an ordinary 60 an hour (the seed's counterpart publishes 60): every other operation's
 * bad inputs go with users[0]'s valid credentials, so a whole run stays within that limit
 * (conformance/run/rate-budget.ts). What a bad credential gets is the same on every operation of
 * a kind — the one authentication layer answers it.
 */
export const CREDENTIAL_OPERATIONS: ReadonlySet<string> = new Set(["listServiceHooks", "listRepoEvents", "createAuthorization", "checkApplicationToken"]);

/** An id no target has: within 32 bits, so it is only the mutated part that is out of range. */
export const NO_SUCH_ID = "2147483000";
export const NO_SUCH_TOKEN = "robustness0000000000000000000000000000000";

export type Credentials = { kind: "token" } | { kind: "basic-user" } | { kind: "basic-app" } | { kind: "none" } | { kind: "header"; authorization: string } | { kind: "query"; accessToken: string };

export interface BadInput {
  /** What is bad about it, e.g. `path hook_id = "abc"`. */
  label: string;
  /** The part of the request it breaks: the verdict applies that part's decision (verdict.ts). */
  part: InputPart;
  path: Record<string, PathValue>;
  query: Record<string, QueryValue>;
  body?: BodyInput;
  credentials: Credentials;
}

/** Ordinary path values: the profile's public resources, or names and ids that exist nowhere. */
export function basePath(op: OperationModel, profile: Profile): Record<string, string> {
  const [owner, repo] = (profile.repos?.public ?? "robustness-owner/robustness-repo").split("/");
  const values: Record<string, string | undefined> = {
    owner,
    repo,
    org: profile.org ?? "robustness-no-such-org",
    username: profile.users[0]?.login,
    issue_number: profile.issue !== undefined ? String(profile.issue) : NO_SUCH_ID,
    client_id: profile.app?.clientId ?? "robustness-no-such-client",
    access_token: NO_SUCH_TOKEN,
    fingerprint: "robustness-fingerprint",
  };
  return Object.fromEntries(op.pathParams.map((p) => [p.name, values[p.name] ?? (p.schema.type === "integer" ? NO_SUCH_ID : "robustness")]));
}

function baseQuery(op: OperationModel, profile: Profile): Record<string, QueryValue> {
  // The authorize page needs a client to refuse anything else than the client id.
  return op.operationId === "authorize" ? { client_id: profile.app?.clientId ?? "robustness-no-such-client" } : {};
}

/** Path parameters that name a resource: any other value names nothing (a fingerprint is free text). */
function namesResource(p: ParameterModel): boolean {
  return p.name !== "fingerprint";
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…(${text.length} chars)` : text;
}

/** A 32-bit seed from the operation ID (FNV-1a), so each case draws its own fixed inputs. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

function queryRefused(op: OperationModel, path: Record<string, string>, query: Record<string, QueryValue>): boolean {
  const present = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));
  return !validateRequest(op.operationId as never, { path, query: present, headers: {} }).valid;
}

function ordinaryCredentials(op: OperationModel): Credentials {
  if (op.host === "auth") return { kind: "none" };
  if (op.auth.basic === "user") return { kind: "basic-user" };
  if (op.auth.basic === "app") return { kind: "basic-app" };
  return op.auth.token ? { kind: "token" } : { kind: "none" };
}

/** The inputs of `op`'s case: deterministic for an operation and profile. */
export function badInputs(op: OperationModel, profile: Profile, count = op.auth.basic === "user" ? INPUTS_WITH_PASSWORD : INPUTS_PER_OPERATION): BadInput[] {
  const seed = seedOf(op.operationId);
  const path = basePath(op, profile);
  const pathValues = Object.fromEntries(Object.entries(path).map(([k, v]) => [k, { value: v }]));
  const query = baseQuery(op, profile);
  const body = op.body ? { label: "", contentType: op.body.mediaTypes[0]!, text: JSON.stringify(baseBody(op)) } : undefined;
  const ordinary = ordinaryCredentials(op);
  const partOf = (change: Partial<BadInput>): InputPart => (change.credentials ? "credentials" : change.query ? "query" : change.path ? "path" : "body");
  const input = (label: string, change: Partial<BadInput>): BadInput => ({ label, part: partOf(change), path: pathValues, query, ...(body ? { body } : {}), credentials: ordinary, ...change });

  const kinds: fc.Arbitrary<BadInput>[] = [];
  const resourceParams = op.pathParams.filter(namesResource);
  if (resourceParams.length > 0) {
    kinds.push(
      fc.constantFrom(...resourceParams).chain((p) => badPathValue(p.schema).map((v) => input(`path ${p.name} = ${show(v.value)}${v.raw ? " (raw)" : ""}`, { path: { ...pathValues, [p.name]: v } }))),
    );
  }
  if (op.queryParams.length > 0) {
    kinds.push(
      fc
        .constantFrom(...op.queryParams)
        .chain((p) => badQueryValue(p.schema).map((v) => ({ p, v })))
        // On the API host only what the contract refuses; the web host's pages are checked for never failing.
        .filter(({ p, v }) => op.host === "auth" || queryRefused(op, path, { ...query, [p.name]: v }))
        .map(({ p, v }) => input(`query ${p.name} = ${v === undefined ? "(absent)" : show(v)}`, { query: { ...query, [p.name]: v } })),
    );
  }
  const structured = structuredBodies(op, path);
  const refusedSample = structured ? fc.sample(structured.filter((b) => b.text.length < 2000 && b.text.startsWith("{")), { seed, numRuns: 1 })[0]?.text : undefined;
  const raw = rawBodies(op, path, refusedSample);
  if (structured) kinds.push(structured.map((b) => input(`body: ${b.label}`, { body: b })));
  if (raw) kinds.push(raw.map((b) => input(`body: ${b.label}`, { body: b })));

  // Garbage credentials go with a refused body: should a target let them through, nothing is created.
  const credentials = credentialInputs(op, (label, change) => input(label, refusedSample && body ? { ...change, body: { label: "", contentType: "application/json", text: refusedSample } } : change));
  // The classic failures first, whatever the draw: a NUL (which PostgreSQL text refuses) in every
  // name and query value, and an id past 64 bits in every id.
  const out: BadInput[] = [
    ...resourceParams.map((p) => {
      const v = p.schema.type === "integer" ? "9223372036854775808" : "robustness\u0000";
      return input(`path ${p.name} = ${show(v)}`, { path: { ...pathValues, [p.name]: { value: v } } });
    }),
    ...op.queryParams.map((p) => input(`query ${p.name} = ${show("robustness\u0000")}`, { query: { ...query, [p.name]: "robustness\u0000" } })),
  ];
  const rest = count - out.length - (credentials ? CREDENTIAL_INPUTS : 0);
  if (kinds.length > 0) {
    // Round robin over the kinds, so an operation with a body still gets its path and query tried.
    const per = kinds.map((_, i) => Math.max(1, Math.floor(rest / kinds.length) + (i < rest % kinds.length ? 1 : 0)));
    kinds.forEach((kind, i) => out.push(...fc.sample(kind, { seed: seed + i, numRuns: per[i]! })));
  }
  if (credentials) out.push(...fc.sample(credentials, { seed: seed - 1, numRuns: CREDENTIAL_INPUTS }));
  const seen = new Set<string>();
  return out.filter((i) => !seen.has(i.label) && seen.add(i.label) && (CREDENTIAL_OPERATIONS.has(op.operationId) || !refusedBeforeAuthentication(i)));
}

/**
 * A path a server may refuse before it reads the credentials — past its URL length limit (the
 * reference's 2048), or percent-encoding that decodes to no UTF-8 — and so charge to the client
 * address (the reference does, with 414 and 400). It tests the one HTTP layer in front of every
 * operation of a host: sent to the CREDENTIAL_OPERATIONS only, like garbage credentials.
 */
function refusedBeforeAuthentication(input: BadInput): boolean {
  return Object.values(input.path).some((v) => v.raw === true || v.value.length > 2048);
}

function credentialInputs(op: OperationModel, input: (label: string, change: Partial<BadInput>) => BadInput): fc.Arbitrary<BadInput> | undefined {
  if (op.host !== "api" || !CREDENTIAL_OPERATIONS.has(op.operationId)) return undefined;
  if (op.auth.basic) return badBasic.map((b) => input(`Authorization: Basic ${show(b)}`, { credentials: { kind: "header", authorization: `Basic ${b}` } }));
  if (!op.auth.token) return undefined;
  return fc.oneof(
    badToken.map((t) => input(`Authorization: token ${show(t)}`, { credentials: { kind: "header", authorization: `token ${t}` } })),
    badToken.map((t) => input(`access_token=${show(t)}`, { credentials: { kind: "query", accessToken: t } })),
  );
}
