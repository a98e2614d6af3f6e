/**
 * The issue events area (seed: Endpoints › B, Resources › Issue event, Events › Issue event
 * kinds): `issue` present or absent by endpoint, 404s, pagination, and each kind's fields. One
 * module per topic; this table is what the runner loads.
 */
import type { Case } from "../../core/types.ts";
import { LIST_CASES } from "./lists.ts";
import { KIND_CASES } from "./kinds.ts";
import { ORDER_CASES } from "./order.ts";

export const CASES: Case[] = [...LIST_CASES, ...KIND_CASES, ...ORDER_CASES];
