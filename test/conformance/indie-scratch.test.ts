import { it } from "vitest";
import { writeFileSync } from "node:fs";
import { runSuite } from "../../conformance/run/runner.ts";
import { startIndependentServer } from "./independent-server/server.ts";
import { independentProfile } from "./independent-profile.ts";
import { resultLine } from "./fault-proxy/run.ts";

it("scratch", async () => {
  const server = await startIndependentServer();
  const t0 = Date.now();
  const decisions = process.env.INDIE_DECISIONS ? JSON.parse(process.env.INDIE_DECISIONS) : undefined;
  try {
    const summary = await runSuite({ baseUrl: server.api, authUrl: server.auth, profile: independentProfile(server, decisions), ...(process.env.INDIE_ONLY ? { only: process.env.INDIE_ONLY } : {}) });
    const lines = summary.results.map((r) => resultLine(r) + (r.failure ? `\n    expected ${JSON.stringify(r.failure.expected)?.slice(0, 300)} actual ${JSON.stringify(r.failure.actual)?.slice(0, 400)}${r.notes.length ? "\n    notes " + r.notes.join(" | ").slice(0, 400) : ""}` : ""));
    const rules = (summary.rules ?? []).filter((r) => r.status === "failed").map((r) => `${r.level} ${r.id}: ${r.failures.map((f) => `${f.case}: ${f.message}`).join(" | ")}`);
    writeFileSync("/tmp/indie/out.txt", [...lines, "", ...rules, "", JSON.stringify(summary.counts), JSON.stringify(summary.levels), `ms ${Date.now() - t0}`, JSON.stringify(server.counts), "hooks " + JSON.stringify(server.state.hooks.map((h) => [h.id, h.config.url])), "tokens " + JSON.stringify([...server.state.tokens.values()].filter((t) => !t.fixture).map((t) => [t.userId, t.clientId, t.scopes, t.note])), "grants " + JSON.stringify(server.state.grants), "codes " + server.state.codes.size, "sessions " + server.state.sessions.size].join("\n"));
  } finally {
    await server.close();
  }
}, 600_000);
