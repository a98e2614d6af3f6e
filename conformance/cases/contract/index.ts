/** The contract area's cases (conformance/core/types.ts Case), one module per topic in this folder. */
import type { Case } from "../../core/types.ts";

export const CASES: Case[] = [];
