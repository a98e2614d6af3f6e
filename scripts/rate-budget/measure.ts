/**
 * Measures what each conformance case spends against the client address — API requests without
 * credentials, those answered 401 (bad or revoked credentials, which many targets count against
 * the address too), and those the target answered under its anonymous limit whatever they
 * carried — on the reference, the independent server of
 * test/conformance/independent-server/ and the two servers written blind (test/conformance/blind-*),
 * and prints the largest figure per case: the
 * table conformance/run/address-requests.ts holds.
 *
 *   node --conditions service-contract-source --import tsx scripts/rate-budget/measure.ts > conformance/run/address-requests.ts
 *
 * The rate budget (conformance/run/rate-budget.ts) plans a run with these figures: a case whose
 * figure does not fit what the target has left is skipped with the reason, the rest run.
 */
import type { ProgressEvent } from "../../conformance/run/runner.ts";
import { runSuite } from "../../conformance/run/runner.ts";
import { runReference } from "../../conformance/reference-profile.ts";
import { startIndependentServer } from "../../test/conformance/independent-server/server.ts";
import { independentProfile } from "../../test/conformance/independent-profile.ts";
import { plainProfile, prefixedProfile, type BlindTarget } from "../../test/conformance/blind/profiles.ts";
import { PREFIXED_DECISIONS } from "../../test/conformance/blind/prefixed-decisions.ts";
import { PLAIN_DECISIONS } from "../../test/conformance/blind/plain-decisions.ts";
import { start as startPrefixed } from "../../test/conformance/blind-prefixed/server.ts";
import { start as startPlain } from "../../test/conformance/blind-plain/server.ts";
import type { Profile } from "../../conformance/core/profile.ts";

type Counter = { fetch: typeof fetch; onProgress: (event: ProgressEvent) => void; table: Record<string, number> };

/**
 * A fetch that counts the API host's requests that spend the address, credited to the case that
 * ran when they were sent. The profile's triggers (the reference's `/_admin/simulate/…`, the
 * independent server's `/_indie/happen/…`) are the target's own test endpoints, not rate-limited.
 */
function counter(api: () => string): Counter {
  const table: Record<string, number> = {};
  let spent = 0;
  // The target's anonymous limit, as its first anonymous answer says it: an answer under that
  // limit was charged to the address whatever credentials went with it (Basic on an operation
  // that does not read it, say).
  let anonymousLimit: string | undefined;
  let userLimit: string | undefined;
  const counted: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const response = await fetch(input, init);
    const onApi = api() !== "" && url.href.startsWith(api()) && !/\/(_admin|_indie|_test|__test__)\//.test(url.pathname);
    const anonymous = !headers.has("authorization") && !url.searchParams.has("access_token");
    const limit = response.headers.get("x-ratelimit-limit") ?? undefined;
    if (onApi && anonymous) anonymousLimit ??= limit;
    else if (onApi && /^token /i.test(headers.get("authorization") ?? "") && response.status < 400) userLimit ??= limit;
    const chargedAsAnonymous = limit !== undefined && limit === anonymousLimit && anonymousLimit !== userLimit;
    if (onApi && (anonymous || response.status === 401 || chargedAsAnonymous)) spent++;
    return response;
  };
  return {
    fetch: counted,
    table,
    onProgress(event) {
      if (event.type !== "case") return;
      if (spent > 0) table[event.result.id] = spent;
      spent = 0;
    },
  };
}

async function onReference(): Promise<Record<string, number>> {
  let api = "";
  const c = counter(() => api);
  await runReference({ fetch: c.fetch, onProgress: c.onProgress, onStarted: (t) => (api = t.server.urls.api) });
  return c.table;
}

/** One server of the tests: started, run whole with its profile, closed. */
async function onServer<T extends { api: string; auth: string; close(): Promise<void> }>(start: () => Promise<T>, profile: (t: T) => Profile): Promise<Record<string, number>> {
  const server = await start();
  const c = counter(() => server.api);
  try {
    await runSuite({ baseUrl: server.api, authUrl: server.auth, profile: profile(server), fetch: c.fetch, onProgress: c.onProgress });
  } finally {
    await server.close();
  }
  return c.table;
}

const tables = [
  await onReference(),
  await onServer(startIndependentServer, (t) => independentProfile(t)),
  await onServer(() => startPrefixed({ retryDelaysMs: [500, 1000, 2000] }), (t) => prefixedProfile(t as BlindTarget, PREFIXED_DECISIONS)),
  await onServer(() => startPlain({ retryDelaysMs: [500, 1000, 2000] }), (t) => plainProfile(t as BlindTarget, PLAIN_DECISIONS)),
];
const merged: Record<string, number> = {};
for (const t of tables) for (const [id, n] of Object.entries(t)) merged[id] = Math.max(merged[id] ?? 0, n);
const sorted = Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
const today = new Date().toISOString().slice(0, 10);
process.stdout.write(`/**
 * What each case spends against the client address — API requests without credentials, and those
 * answered 401 — measured on the reference, the independent server and the two servers written blind (the largest),
 * ${today}, by scripts/rate-budget/measure.ts (its header has the command). Generated: run it again
 * when a case changes what it sends; test/conformance/independent-server.test.ts checks a whole run
 * still spends no more than the total.
 */
export const ADDRESS_REQUESTS: Readonly<Record<string, number>> = ${JSON.stringify(sorted, null, 2).replace(/"([A-Z0-9_-]+)":/g, '"$1":')};
`);
const sum = (t: Record<string, number>) => Object.values(t).reduce((a, b) => a + b, 0);
process.stderr.write(`reference ${sum(tables[0]!)}, independent ${sum(tables[1]!)}, blind-prefixed ${sum(tables[2]!)}, blind-plain ${sum(tables[3]!)}; the table: ${Object.keys(sorted).length} cases, ${sum(sorted)} requests\n`);
