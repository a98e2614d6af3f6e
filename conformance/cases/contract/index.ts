/** The contract area's cases (conformance/core/types.ts Case), one module per topic in this folder. */
import type { Case } from "../../core/types.ts";
import { RATE_CASES } from "./rate-limit.ts";
import { SCOPE_CASES } from "./scopes.ts";
import { REQUEST_CASES } from "./requests.ts";
import { ESCAPE_CASES } from "./malformed-escape.ts";
import { PRECISION_CASES } from "./precision.ts";
import { withCleanUp } from "../oauth/cleanup.ts";

// The scope cases get tokens through the web flow: each removes them, and the grant, in a `finally` (oauth/cleanup.ts).
export const CASES: Case[] = [...RATE_CASES, ...SCOPE_CASES.map(withCleanUp), ...REQUEST_CASES, ...ESCAPE_CASES, ...PRECISION_CASES];
