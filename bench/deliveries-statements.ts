/**
 * Statements a push action makes with a hook listening (its delivery enqueued in the action's
 * transaction) and without, on PGlite: counted (not timed) from the protocol messages — a Parse
 * for each parameterised statement, a simple Query for BEGIN/COMMIT — over 100 sequential
 * actions round-robin over the demo's repositories, so the figure does not depend on the load.
 * Every one of them runs while the action holds its repository's lock (record.ts lockRepository),
 * and on PGlite on the one thread (bench/README.md, "Deliveries", issue 43).
 *
 *   node --liftoff-only --import tsx bench/deliveries-statements.ts
 */
import { PGlite } from "@electric-sql/pglite";
import { openDatabase } from "../reference/db/database.ts";
import { migrate } from "../reference/db/migrate.ts";
import { seedDatabase } from "../reference/seed/load.ts";
import { startDeliveries } from "../reference/deliveries/engine.ts";
import { runAction } from "../reference/domain/index.ts";
import { hooksTo, URLS } from "./deliveries.ts";

const ACTIONS = 100;
let statements = 0;
let simple = 0;
let counting = false;
const proto = PGlite.prototype as unknown as { execProtocolRawSync(message: Uint8Array): Uint8Array };
const exec = proto.execProtocolRawSync;
proto.execProtocolRawSync = function (this: unknown, message: Uint8Array) {
  if (counting && message[0] === 0x50) statements++;
  if (counting && message[0] === 0x51) simple++;
  return exec.call(this, message);
};

const db = await openDatabase({});
await migrate(db);
await seedDatabase(db, "demo");
// The queue side only: nothing is sent, so only the actions' own statements are counted.
const engine = await startDeliveries(db, URLS, { worker: false });
const { repos } = await hooksTo(db, "http://127.0.0.1:9/hook");
for (const withHook of [false, true]) {
  const listeners = withHook ? [engine.queue.listener] : [];
  statements = 0;
  simple = 0;
  counting = true;
  for (let i = 0; i < ACTIONS; i++) await runAction({ db, urls: URLS, now: () => new Date(), listeners }, "push", { repo: repos[i % repos.length]!, actor: "octocat", params: { message: `bench-${i}` } });
  counting = false;
  process.stdout.write(`${withHook ? "with a hook" : "no hook    "}: ${(statements / ACTIONS).toFixed(2)} parameterised statements + ${(simple / ACTIONS).toFixed(2)} simple queries (BEGIN/COMMIT) per push action\n`);
}
await engine.stop();
await db.close();
