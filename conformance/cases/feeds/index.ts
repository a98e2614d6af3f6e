/**
 * The activity feeds area (seed: Endpoints › A, Events › Activity feed behaviour, Limits): page
 * size and page limits with their links, conditional polling (ETag, 304, the rate limit,
 * X-Poll-Interval), the 90-day window, and who sees private events. One module per topic; this
 * table is what the runner loads.
 */
import type { Case } from "../../core/types.ts";
import { PAGINATION_CASES } from "./pagination.ts";
import { ETAG_CASES } from "./etag.ts";
import { WINDOW_CASES } from "./window.ts";
import { VISIBILITY_CASES } from "./visibility.ts";
import { ORDER_CASES } from "./order.ts";
import { PAYLOAD_CASES } from "./payloads.ts";

export const CASES: Case[] = [...PAGINATION_CASES, ...ETAG_CASES, ...WINDOW_CASES, ...VISIBILITY_CASES, ...ORDER_CASES, ...PAYLOAD_CASES];
