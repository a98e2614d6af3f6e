import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Vitest's default on 2 cores is one worker, which leaves a core idle while a file waits on a
    // child process, a server or a browser (most of the slow files do). Three keep both cores busy.
    maxWorkers: 3,
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
