import { openDatabase } from "/work/main/reference/db/database.ts";
import { migrate } from "/work/main/reference/db/migrate.ts";
import { seedDatabase } from "/work/main/reference/seed/load.ts";
import { startDeliveries } from "/work/main/reference/deliveries/engine.ts";
for (let i = 0; i < 3; i++) {
let t = performance.now(); const c0 = process.cpuUsage();
const lap = (what: string) => { const n = performance.now(); console.log(what, (n - t).toFixed(0), "ms"); t = n; };
const db = await openDatabase({});
lap("open");
await migrate(db); lap("migrate");
await seedDatabase(db, "demo"); lap("seed");
const d = await startDeliveries(db, { api: "http://x", auth: "http://y" }, {}); lap("deliveries");
await d.close?.(); await db.close(); lap("close");
const c = process.cpuUsage(c0); console.log("cpu", ((c.user + c.system) / 1000).toFixed(0));
}
