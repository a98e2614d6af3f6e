/**
 * The robustness area's cases (conformance/core/types.ts Case): schema-derived bad inputs for
 * every operation of the contract (cases.ts), which a target must answer with a 4xx in the error
 * shape, never a 5xx.
 */
import type { Case } from "../../core/types.ts";
import { ROBUSTNESS_CASES } from "./cases.ts";

export const CASES: Case[] = [...ROBUSTNESS_CASES];
