/**
 * The two halves of the test suite (vitest.config.ts makes each a vitest project).
 *
 * `npm test` runs **core**: the contract, the generators, the validators, the client and server
 * runtimes, the reference over real HTTP on real databases (PGlite, and PostgreSQL when
 * TEST_DATABASE_URL is set), the conformance suite's cases against the reference, fakes and the
 * fair and broken variants, the pages in Chromium, and the repository's checks (typecheck,
 * `generate --check`, the spec lint). It is the loop a change is made in: about 4 to 5 minutes
 * on a 2-core machine (bench/README.md, "The test suite's time").
 *
 * `npm run test:integration` runs the files below: the project as other people meet it, each
 * outside the test's process, which is where the time goes (about 60 % of the suite's CPU in
 * under a quarter of its files). CI runs both halves (.ci/run); so does `npm run test:all`.
 * A file belongs here when its subject is one of:
 *
 * - the packed package installed in an empty project, and the README's walk-throughs, from the
 *   clone and from that installed package;
 * - other teams' tools reading the contract (generators, linters, Prism, a validator in Python);
 * - the `service-contract` command as a process: its ready line, exit codes, signals, locks and
 *   what a crash or a kill leaves;
 * - a deployment: two instances on one PostgreSQL behind one address, processes racing to
 *   publish PGlite's template.
 *
 * Paths, not globs, so that a renamed file fails test/repository/tiers.test.ts instead of
 * silently moving into the other half.
 */
export const INTEGRATION: readonly string[] = [
  // The packed package and the README.
  "test/package/consumer.test.ts",
  "test/package/stub-server.test.ts",
  "test/cli/readme-examples.test.ts",
  "test/conformance/package-export.test.ts",
  "test/validators/package-export.test.ts",
  // Other teams' tools.
  "test/tools/hey-api.test.ts",
  "test/tools/kubb.test.ts",
  "test/tools/orval.test.ts",
  "test/tools/python-jsonschema.test.ts",
  "test/tools/redocly.test.ts",
  "test/tools/spectral.test.ts",
  "test/tools/swagger-typescript-api.test.ts",
  "test/cli/mock-proxy-conformance.test.ts",
  // The command as a process.
  "test/cli/bad-input.test.ts",
  "test/cli/bench.test.ts",
  "test/cli/compiled-cli.test.ts",
  "test/cli/diff.test.ts",
  "test/cli/launcher-signals.test.ts",
  "test/cli/lint.test.ts",
  "test/cli/lint-stranger.test.ts",
  "test/cli/mock.test.ts",
  "test/cli/seed-parity.test.ts",
  "test/cli/validate.test.ts",
  "test/generators/generate.test.ts",
  "test/generators/out-folder.test.ts",
  "test/conformance/cli.test.ts",
  "test/conformance/cli-bounded-memory.test.ts",
  "test/conformance/cli-hostile-targets.test.ts",
  "test/conformance/cli-hostile-answers.test.ts",
  // Servers written blind, each run four times whole (about 2 minutes a server).
  "test/conformance/blind-servers.test.ts",
  // Every case alone and the whole suite in two shuffled orders, one target a file (1–3 minutes
  // each, mostly waiting on deliveries and the two-factor case's fresh time steps).
  "test/conformance/order/reference.test.ts",
  "test/conformance/order/independent.test.ts",
  "test/conformance/order/blind-prefixed.test.ts",
  "test/conformance/order/blind-plain.test.ts",
  // The OAuth client suite end to end: the example client signs in through Chromium, about 30
  // sign-ins spent mostly waiting on pages; the PKCE case's judgement stays in core
  // (test/conformance/consumers/oauth-client-pkce.test.ts).
  "test/conformance/consumers/oauth-client.test.ts",
  // Another team's server: two whole runs of the suite against the independent server (about
  // 30 s each) and a rerun of the two-factor case that may wait out a TOTP period; its seed
  // breaches stay in core (test/conformance/independent-server-seed.test.ts).
  "test/conformance/independent-server.test.ts",
  // The same suite against clients on simple-oauth2 and openid-client, and a broken one: about 20
  // sign-ins; what the cases judge stays in core (oauth-client-judgement.test.ts).
  "test/conformance/consumers/oauth-client-libraries.test.ts",
  "test/reference/serve-cli.test.ts",
  "test/reference/simulate-cli.test.ts",
  "test/reference/simulate-poll.test.ts",
  "test/reference/deliveries-cli.test.ts",
  "test/reference/deliveries-crash.test.ts",
  "test/reference/deliveries-interrupted.test.ts",
  "test/reference/deliveries-postgres-crash.test.ts",
  // Deployments.
  "test/reference/instances-behind-proxy.test.ts",
  "test/reference/pglite-template.test.ts",
];
