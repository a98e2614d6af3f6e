/**
 * Every case the rule table counts: the server suite's and the two consumer suites' (webhook
 * receivers, OAuth clients), so a rule that only a consumer can break (a receiver's signature
 * check, a client's state check) is proven by the case that checks it there.
 */
import { ALL_CASES } from "../cases/index.ts";
import { CLIENT_CASES } from "../consumers/oauth-client/cases.ts";
import { RECEIVER_CASES } from "../consumers/receiver/cases.ts";
import type { CaseMeta } from "../core/types.ts";

export const TABLE_CASES: readonly CaseMeta[] = [...ALL_CASES, ...RECEIVER_CASES, ...CLIENT_CASES];
