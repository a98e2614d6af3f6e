/**
 * HOOKS-CAP-*: a place holds a bounded number of hooks (D-REF-HOOKS-CAP: 20 per repository and
 * per organization; the next create answers 422 `custom`), so one admin cannot make one event
 * fan out without end. The case creates hooks on the public repository until one is refused —
 * it must be, within the cap plus the hooks already there — then deletes every hook it made.
 */
import type { Case } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { createBody, hookPath, hookRequest, is2xx, receiverOf, removeQuietly, repoPlace, SEED, type Hook } from "./support.ts";

/** The contract's cap; the case allows for hooks the repository holds already (those it can list). */
const CAP = 20;

export const CAP_CASES: Case[] = [
  {
    id: "HOOKS-CAP-001",
    title: "A repository takes at most 20 hooks: the next create answers 422",
    area: "hooks",
    seed: SEED.subscription,
    rules: ["D-REF-HOOKS-CAP", "D-SCHEMA-VALIDATION-ERROR"],
    needs: ["hook-admin", "public-repo", "receiver"],
    async run(ctx) {
      const place = repoPlace(ctx);
      const listed = await hookRequest(ctx, place, "list");
      const list = listed.status === 200 ? listed.json<unknown>() : undefined;
      const existing = Array.isArray(list) ? list.length : 0;
      const made: number[] = [];
      try {
        let refused: number | undefined;
        let answer: Record<string, unknown> | undefined;
        // Push-only hooks: creating one pings it, and nothing else reaches the receiver.
        while (made.length + existing <= CAP) {
          const res = await hookRequest(ctx, place, "create", { json: createBody(receiverOf(ctx).url(hookPath("HOOKS-CAP-001")), { events: ["push"] }) });
          if (!is2xx(res.status)) {
            refused = res.status;
            const body = res.json<unknown>();
            answer = body !== null && typeof body === "object" ? (body as Record<string, unknown>) : undefined;
            break;
          }
          const id = res.json<Hook>()?.id;
          if (!Number.isInteger(id)) check.fail(`a create answered ${res.status} without the hook's id`, { actual: res.text.slice(0, 160), pointer: "/body/id" });
          made.push(id);
        }
        check.ok(refused !== undefined, `the repository took ${made.length} more hooks beside its ${existing} without refusing one`, { expected: `a refusal by the ${CAP + 1}th hook`, actual: made.length + existing, pointer: "/status" });
        check.equal(refused, 422, "a create past the cap answers 422", "/status");
        check.equal(made.length + existing, CAP, `the refusal comes at the cap: ${CAP} hooks on the repository`);
        // errors[] is the validation-error shape's (D-SCHEMA-VALIDATION-ERROR), not the cap's.
        if (ctx.decisions.on("D-SCHEMA-VALIDATION-ERROR")) ctx.rule("D-SCHEMA-VALIDATION-ERROR").ok(Array.isArray(answer?.errors), "the 422 says what failed (errors)", { actual: answer, pointer: "/body/errors" });
      } finally {
        // On a side client: the case's last request stays the one that showed the result.
        for (const id of made) await removeQuietly(ctx, place, id);
      }
    },
  },
];
