/**
 * CONTRACT-PRECISION-001: the contract's formats, patterns and statuses where the seed names only
 * a type or an outcome (D-SCHEMA-PRECISION, spec/DECISIONS.md). Every response any case reads is
 * validated against the contract, and a `format` or `pattern` problem under a seed rule's field
 * counts against this decision (conformance/rules/contract-rules.ts): this case owns it, in every
 * area, so a target that spells timestamps or URLs otherwise sees one failing decision — and one
 * switch — instead of a seed failure in each case that read such a field. Its own read is the
 * public timeline, validated whole (a timestamp or URL of the contract's form passes).
 */
import type { Case } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { mainToken } from "../profile.ts";

export const PRECISION_CASES: Case[] = [
  {
    id: "CONTRACT-PRECISION-001",
    title: "Timestamps, URLs and ids keep the formats and patterns the contract gives the seed's fields",
    area: "contract",
    seed: "Resources and their fields (spec/DECISIONS.md: D-SCHEMA-PRECISION)",
    rules: ["D-SCHEMA-PRECISION"],
    needs: ["user"],
    async run(ctx) {
      const token = mainToken(ctx);
      const timeline = await ctx.http.request({ operationId: "listPublicEvents", token });
      check.ok(timeline.status === 200 || timeline.status === 304, "GET /events answers 200", { expected: 200, actual: timeline.status, pointer: "/status" });
    },
  },
];
