/**
 * What each case spends against the client address — API requests without credentials, and those
 * answered 401 — measured on the reference, the independent server and the two servers written blind (the largest),
 * 2026-12-07, by scripts/rate-budget/measure.ts (its header has the command). Generated: run it again
 * when a case changes what it sends; test/conformance/independent-server.test.ts checks a whole run
 * still spends no more than the total.
 */
export const ADDRESS_REQUESTS: Readonly<Record<string, number>> = {
  "CONTRACT-AUTH-001": 1,
  "CONTRACT-AUTH-002": 1,
  "CONTRACT-ESCAPE-001": 2,
  "CONTRACT-RATE-001": 1,
  "CONTRACT-REQ-005": 1,
  "FEEDS-VIS-002": 6,
  "FEEDS-VIS-005": 1,
  "OAUTH-APPS-001": 2,
  "OAUTH-APPS-003": 2,
  "OAUTH-FLOW-001": 1,
  "OAUTH-NONWEB-001": 1,
  "OAUTH-NONWEB-002": 4,
  "OAUTH-NONWEB-006": 3,
  "OAUTH-REVIEW-002": 1,
  "OAUTH-REVOKECODES-001": 1,
  "OAUTH-TOKEN-007": 1,
  "OAUTH-TRANSPORT-001": 1,
  "OAUTH-TRANSPORT-002": 1,
  "ROBUST-CHECK_APPLICATION_TOKEN-001": 6,
  "ROBUST-CREATE_AUTHORIZATION-001": 2,
  "ROBUST-LIST_REPO_EVENTS-001": 4,
  "ROBUST-LIST_SERVICE_HOOKS-001": 2
};
