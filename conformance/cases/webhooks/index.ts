/**
 * The webhooks area (seed: Events › Webhook subscription, Delivery headers, Ping event;
 * Authentication › Webhook authentication; Resources › Webhook delivery payload, Ping payload):
 * what a hook is sent, end to end — each case installs a webhook on the target pointing at the
 * suite's own receiver, makes events happen through the profile's triggers, and checks the
 * deliveries as they arrived, raw bytes included. Managing hooks is the hooks area's
 * (conformance/cases/hooks). One module per topic; this table is what the runner loads.
 */
import type { Case } from "../../core/types.ts";
import { PING_CASES } from "./ping.ts";
import { SUBSCRIPTION_CASES } from "./subscription.ts";
import { HEADER_CASES } from "./headers.ts";
import { SIGNATURE_CASES } from "./signatures.ts";
import { CONTENT_CASES } from "./content-types.ts";
import { PAYLOAD_CASES } from "./payloads.ts";
import { RETRY_CASES } from "./retry.ts";
import { ORGANIZATION_CASES } from "./organization.ts";

export const CASES: Case[] = [...PING_CASES, ...SUBSCRIPTION_CASES, ...HEADER_CASES, ...SIGNATURE_CASES, ...CONTENT_CASES, ...PAYLOAD_CASES, ...RETRY_CASES, ...ORGANIZATION_CASES];
