/**
 * Compile-only (`tsc -p .`, part of `npm test`; never run): the typed validators narrow the value
 * to the contract's type on success, keep it unusable before, and refuse names the contract does
 * not have when the name is a literal. Each `@ts-expect-error` fails the typecheck if its line
 * ever compiles, so the declarations cannot silently widen to `any`.
 */
import {
  validateActivityEvent,
  validateIssueEvent,
  validateRequest,
  validateResponse,
  validateSchema,
  validateWebhook,
  type ValidationError,
  type ValidationResult,
} from "service-contract/validators";
import type { ActivityEvent, IssueEvent, IssueEventWithIssue, PushWebhookPayload, User } from "../../generated/types.ts";

export function narrowing(body: unknown): string[] {
  const out: string[] = [];

  const push = validateWebhook("push", body);
  if (push.valid) {
    const payload: PushWebhookPayload = push.value;
    out.push(payload.ref, payload.after);
    // @ts-expect-error a push payload has no zen (that is ping)
    void push.value.zen;
  } else {
    const errors: ValidationError[] = push.errors;
    out.push(...errors.map((e) => `${e.path} ${e.message}`));
    // @ts-expect-error no value on failure
    void push.value;
  }
  // @ts-expect-error errors exist only once the result is known to be invalid
  void push.errors;

  const user = validateSchema("User", body);
  if (user.valid) {
    const u: User = user.value;
    out.push(u.login);
  }

  // A name known only at run time falls back to `unknown`: nothing can be read without a check.
  const dynamic = validateSchema(String(body), body);
  // @ts-expect-error the value of an unknown schema is unknown
  if (dynamic.valid) void dynamic.value.login;

  const event = validateActivityEvent(body);
  if (event.valid) {
    const e: ActivityEvent = event.value;
    out.push(e.type);
  }

  const withIssue = validateIssueEvent(body, { issue: "present" });
  if (withIssue.valid) {
    const e: IssueEventWithIssue = withIssue.value;
    out.push(String(e.issue.number));
  }
  const withoutIssue = validateIssueEvent(body, { issue: "absent" });
  if (withoutIssue.valid) {
    const e: IssueEvent = withoutIssue.value;
    // @ts-expect-error the per-issue form has no issue
    void e.issue.number;
  }

  const request = validateRequest("listPublicEvents", { query: { page: "2" } });
  if (request.valid) out.push(String(request.value.query.page));
  // @ts-expect-error no such operation
  validateRequest("listEverything", {});
  // @ts-expect-error no such operation
  validateResponse("listEverything", 200, "[]");

  const result: ValidationResult<unknown> = validateResponse("listPublicEvents", 200, "[]");
  if (!result.valid) out.push(...result.errors.map((e) => e.path));
  return out;
}
