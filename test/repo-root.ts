/**
 * The repository's root folder, for tests that read its files. Its own module so that a test that
 * needs only the path does not load test/cli/run-cli.ts, which builds the compiled command first
 * (test/cli/compiled-cli.ts).
 */
import { join } from "node:path";

export const repoRoot = join(import.meta.dirname, "..");
