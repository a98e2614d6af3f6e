/**
 * Where the delivery engine's database time goes on PGlite, by statement: the table of
 * bench/README.md ("Per-delivery cost on PGlite"). PGlite runs each protocol message
 * synchronously in `execProtocolRawSync`, so timing that call measures the database's own work
 * (no queueing behind other statements); a Parse message names the statement the following
 * messages belong to. Set up as bench/deliveries.ts sets up its engine runs (its hooks, its
 * push payload, its `engineRun`), the engine delivers a warm-up of 500, then
 * BENCH_DELIVERIES_COUNT (3,000) signed pushes enqueued in transactions of 100 to the bench's
 * loopback receiver, and the figures of that run are printed as µs per delivery.
 *
 *   node --import tsx bench/deliveries-profile.ts      (add --cpu-prof --cpu-prof-dir=/tmp/… for a CPU profile)
 */
import { openDatabase } from "../reference/db/database.ts";
import { migrate } from "../reference/db/migrate.ts";
import { seedDatabase } from "../reference/seed/load.ts";
import { startDeliveries } from "../reference/deliveries/engine.ts";
import { timePgliteStatements } from "./lib/pglite-statements.ts";
import { CONCURRENCY, engineRun, hooksTo, pushSample, startReceiver, URLS } from "./deliveries.ts";

const COUNT = Number(process.env.BENCH_DELIVERIES_COUNT ?? 3000);

const { spent } = timePgliteStatements(64);

const receiver = await startReceiver();
const db = await openDatabase({});
await migrate(db);
await seedDatabase(db, "demo");
const engine = await startDeliveries(db, URLS, { concurrency: CONCURRENCY, onError: (e) => process.stderr.write(`${String(e)}\n`) });
const { hookId } = await hooksTo(db, receiver.url);
// The bench's own push body (a real push action's, 4.9 KB on the demo seed), delivered once here.
const { payload, sample } = await pushSample(db, engine, receiver, hookId);

let perSecond = 0;
for (const n of [500, COUNT]) {
  spent.clear();
  // Without engineRun's drain, as this profile has always run: log writes still under way at the last
  // receipt are counted with what follows (the warm-up's in the measured run, its own up to engine.stop).
  perSecond = await engineRun(db, engine, receiver, hookId, payload, n, { drain: false });
}
await engine.stop();
process.stdout.write(`${COUNT} deliveries of ${Buffer.byteLength(sample.body)} bytes, ${Math.round(perSecond)} del/s; database time by statement (µs per delivery):\n`);
let total = 0;
for (const [name, s] of [...spent].sort((a, b) => b[1].ms - a[1].ms)) {
  total += s.ms;
  process.stdout.write(`  ${((s.ms * 1000) / COUNT).toFixed(0).padStart(6)}  ${String(s.calls).padStart(6)} messages  ${name}\n`);
}
process.stdout.write(`  ${((total * 1000) / COUNT).toFixed(0).padStart(6)}  total\n`);
await db.close();
receiver.stop();
