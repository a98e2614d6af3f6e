/**
 * Any order, the same verdict, on reference: every case alone and the whole suite in two shuffled
 * orders (run-orders.ts). Integration: one to three minutes, mostly waiting.
 */
import { it } from "vitest";
import { checkOrders } from "./run-orders.ts";
import { ceiling } from "../../ceilings.ts";

it("reference: each case's verdict alone and in two shuffled orders is the same, and nothing is left behind", async () => {
  await checkOrders("reference", false);
}, ceiling(480_000));
