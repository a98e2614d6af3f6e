/**
 * A run with every kind of result — passed, failed with full details, skipped, across three areas,
 * and text from a hostile target (markup, control characters, a CDATA end) — for the reporter
 * tests and the HTML report's browser test.
 */
import type { RunSummary } from "../../conformance/core/types.ts";

export const HOSTILE = `<script>alert("x")</script> & ]]> \u0000\u0007 done`;

export const SAMPLE: RunSummary = {
  target: { baseUrl: "http://127.0.0.1:3000", authUrl: "http://127.0.0.1:3001" },
  startedAt: "2025-01-02T03:04:05.000Z",
  durationMs: 1234,
  counts: { passed: 2, failed: 2, skipped: 1 },
  results: [
    { id: "OAUTH-REDIRECT-001", title: "Without redirect_uri the code goes to the callback", area: "oauth", seed: "Web application flow › Redirect URLs", needs: ["app", "authorize"], status: "passed", durationMs: 120, notes: [] },
    {
      id: "OAUTH-REDIRECT-007",
      title: "A path extending the callback path without a / boundary is rejected",
      area: "oauth",
      seed: "Web application flow › Redirect URLs",
      status: "failed",
      durationMs: 30,
      notes: ["tried http://127.0.0.1:8080/callbackx"],
      failure: {
        message: "the authorize page accepted the redirect_uri",
        expected: { status: 404 },
        actual: { status: 302, location: "http://127.0.0.1:8080/callbackx?code=abc" },
        pointer: "/status",
        curl: "curl -i -X GET 'http://127.0.0.1:3001/login/oauth/authorize?client_id=x&redirect_uri=http%3A%2F%2F127.0.0.1%3A8080%2Fcallbackx'",
      },
    },
    { id: "FEEDS-ETAG-001", title: "The ETag is quoted", area: "feeds", seed: "Events › Conditional requests", status: "passed", durationMs: 8, notes: [] },
    { id: "FEEDS-PRIVATE-001", title: HOSTILE, area: "feeds", seed: "Events", status: "failed", durationMs: 9, notes: [], failure: { message: HOSTILE, actual: HOSTILE, pointer: "" } },
    { id: "WEBHOOK-PING-001", title: "A ping is sent when a hook is created", area: "webhooks", seed: "Webhooks › Ping event", needs: ["receiver"], status: "skipped", durationMs: 0, reason: "the run has no webhook receiver", notes: [] },
  ],
};
