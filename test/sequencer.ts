/**
 * The order test files start in. Vitest starts the files that took longest last time first, from
 * its cache in node_modules/.vite; a fresh checkout (every CI run) has no cache, and it falls back
 * to the largest files first, which started the 13-second typecheck last, alone on one core, at
 * the end of the run. The files that take longest (wall time, `npm test` on a fresh clone,
 * bench/README.md "The test suite's time") start first, in this order; the rest follow in
 * vitest's own order. A name here that matches no file fails test/repository/sequencer.test.ts.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const SLOW_FIRST = [
  "test/package/consumer.test.ts",
  "test/reference/instances-behind-proxy.test.ts",
  "test/generators/generate.test.ts",
  "test/reference/deliveries-crash.test.ts",
  "test/conformance/consumers/oauth-client.test.ts",
  "test/cli/readme-examples.test.ts",
  "test/reference/serve-cli.test.ts",
  "test/cli/mock-proxy-conformance.test.ts",
  "test/tools/spectral.test.ts",
  "test/cli/bad-input.test.ts",
  "test/browser/conformance-report-layout.test.ts",
  "test/tools/orval.test.ts",
  "test/spec/octokit-receiver-gaps.test.ts",
  "test/cli/launcher-signals.test.ts",
  "test/browser/conformance-authorize.test.ts",
  "test/conformance/broken-variants.test.ts",
  "test/cli/lint.test.ts",
  "test/browser/docs-try-it-out.test.ts",
  "test/reference/simulate-cli.test.ts",
  "test/repository/checks.test.ts",
];

function rank(spec: TestSpecification): number {
  const path = spec.moduleId.replaceAll("\\", "/");
  const i = SLOW_FIRST.findIndex((name) => path.endsWith(`/${name}`));
  return i === -1 ? SLOW_FIRST.length : i;
}

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array.prototype.sort is stable: files not listed keep vitest's order among themselves.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
