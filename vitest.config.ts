import { configDefaults, defineConfig } from "vitest/config";
import SlowFirstSequencer from "./test/sequencer.ts";
import { ceiling } from "./test/ceilings.ts";
import { INTEGRATION } from "./test/tiers.ts";

export default defineConfig({
  test: {
    // Ceilings for a busy machine, not expectations of speed (test/ceilings.ts).
    testTimeout: ceiling(30_000),
    hookTimeout: ceiling(60_000),
    // Nothing a test starts outlives it: each worker stops the child processes a test or a file
    // left running (by PID, also when it failed or timed out), and the run fails if any remain.
    setupFiles: ["test/processes/children.ts"],
    globalSetup: ["test/processes/global-check.ts"],
    // Vitest's default on 2 cores is one worker, which leaves a core idle while a file waits on a
    // child process, a server or a browser (most of the slow files do). Three keep both cores busy;
    // a fourth did not raise the CPU share (162 % against 161 %) and loads one more module graph
    // (bench/README.md, "Session 10").
    maxWorkers: 3,
    // PGlite's WebAssembly runs Liftoff-only in the workers as it does in the command
    // (bin/service-contract.js): the many short-lived databases the files open are the case where
    // TurboFan's compiling costs more than it saves (bench/pglite-tiering.ts).
    execArgv: ["--liftoff-only"],
    // One module graph per worker, not per file: every file imported Fastify, PGlite, the
    // validators and the reference afresh (79 s of the run's "import" time; about 140 s of its
    // CPU). So process-wide state must stay correct across files: caches keyed by what they
    // depend on (the spec path; the secret key is given to each new database), spies restored,
    // the working folder and environment put back.
    isolate: false,
    // The longest files start first, also on a fresh checkout, where vitest has no timings yet.
    sequence: { sequencer: SlowFirstSequencer },
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
    // Two halves (test/tiers.ts): `npm test` runs core, `npm run test:integration` the rest, CI
    // and `npm run test:all` both. Each inherits everything above; the closing check for leftover
    // processes (globalSetup) stays the root's, so it runs once per run whichever halves run.
    projects: [
      { extends: true, test: { name: "core", include: ["test/**/*.test.ts"], exclude: [...configDefaults.exclude, ...INTEGRATION], globalSetup: [] } },
      { extends: true, test: { name: "integration", include: [...INTEGRATION], globalSetup: [] } },
    ],
  },
});
