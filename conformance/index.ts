/**
 * The conformance suite as a library (`import { runSuite } from "service-contract/conformance"`):
 * run the registered cases — or your own — against any implementation from a test or a script,
 * and render the same reports the CLI writes. The CLI (`service-contract conformance`) is a thin
 * layer over these.
 */
export { runSuite, SelectionError, DEFAULT_CASE_TIMEOUT_MS, type SuiteOptions, type ProgressEvent } from "./run/runner.ts";
export { loadProfile, checkProfile, ProfileError } from "./run/load-profile.ts";
export { suggestDecisions, suggestedEntries, type SuggestedEntry } from "./run/suggest.ts";
export { runReference, startReferenceTarget, type ReferenceOptions, type ReferenceTarget } from "./reference-profile.ts";
export { ALL_CASES } from "./cases/index.ts";
export { ruleTable, formatRuleTable, problems as ruleTableProblems, rulesById, type RuleRow } from "./rules/table.ts";
export type { Rule, Coverage } from "./rules/load.ts";
export { withRules } from "./core/types.ts";
export { CaseFailure, SkipCase, check } from "./core/failure.ts";
export { startReceiver } from "./receiver/server.ts";
export { ConsoleReporter, htmlReport, junitXml, parseReporters, writeReports, REPORTERS, type ReporterName } from "./report/index.ts";
export type { Area, Case, CaseDraft, CaseContext, CaseMeta, CaseResult, FailureDetail, Need, RunSummary, Status, SuggestedDecisions } from "./core/types.ts";
export type { AuthorizeDriver, Profile, ProfileApp, ProfileUser, TriggerStep } from "./core/profile.ts";
export type { ReceivedDelivery, Receiver } from "./core/receiver.ts";
// The consumer suites: a webhook receiver, an OAuth web-flow client (conformance/consumers).
export { runReceiverSuite, RECEIVER_CASES, type ReceiverCase, type ReceiverContext, type ReceiverSuiteOptions } from "./consumers/receiver/index.ts";
export { runOAuthClientSuite, startAuthorizationServer, loadClientProfile, checkClientProfile, ClientProfileError, CLIENT_CASES, type AuthorizationServer, type ClientCase, type ClientContext, type ClientProfile, type OAuthClientSuiteOptions } from "./consumers/oauth-client/index.ts";
