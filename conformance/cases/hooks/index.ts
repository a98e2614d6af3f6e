/**
 * The hooks area (seed: Endpoints › C, Events › Webhook subscription, Service hooks): managing
 * repository and organization webhooks through the API, and the service hook catalog. What a
 * hook then delivers is the webhooks area's (conformance/cases/webhooks). One module per topic;
 * this table is what the runner loads.
 */
import type { Case } from "../../core/types.ts";
import { MANAGE_CASES } from "./manage.ts";
import { ORG_CASES } from "./org.ts";
import { CATALOG_CASES } from "./catalog.ts";
import { ACCESS_CASES } from "./access.ts";
import { SERVICE_HOOK_CASES } from "./service-hooks.ts";
import { DELIVERY_DETAIL_CASES } from "./deliveries-detail.ts";
import { TESTS_ENDPOINT_CASES } from "./tests-endpoint.ts";
import { ORG_TOKEN_CASES } from "./org-tokens.ts";
import { withCleanUp } from "../oauth/cleanup.ts";
import { CAP_CASES } from "./cap.ts";
import { SERVICE_EVENT_CASES } from "./service-events.ts";

export const CASES: Case[] = [...MANAGE_CASES, ...ORG_CASES, ...CATALOG_CASES, ...ACCESS_CASES, ...SERVICE_HOOK_CASES, ...DELIVERY_DETAIL_CASES, ...TESTS_ENDPOINT_CASES, ...ORG_TOKEN_CASES.map(withCleanUp), ...CAP_CASES, ...SERVICE_EVENT_CASES];
