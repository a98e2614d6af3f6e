/**
 * WEBHOOK-SIGNATURE-*: delivery signatures (seed: Authentication › Webhook authentication, Events ›
 * Delivery headers — an HMAC hex digest of the payload keyed with the hook's secret, sent when a
 * secret is configured, algorithm not shown: S-WEBHOOK-SIGNATURE accepts sha1, sha256 or sha512;
 * contract, D-SIGNATURE: `X-Hub-Signature: sha1=…` and `X-Hub-Signature-256: sha256=…` over the
 * exact body bytes, only with a secret — or the headers the profile declares). The receiver keeps
 * the raw bytes, so the HMACs are recomputed over exactly what arrived: a signature over a
 * re-serialized payload fails, with a hint naming what was signed instead.
 */
import type { Case } from "../../core/types.ts";
import { withRules } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { checkHookStatus, checkSecretHidden, freshSecret, hookRequest, placeName, repoPlace, SEED, withHook, type Hook, type Installed } from "../hooks/support.ts";
import type { CaseContext } from "../../core/types.ts";
import { checkMediaType, checkNoSignatures, checkSignatures, creationPing, FORM_TYPE, isPingFor, mark, nameOf, pingNow, pushAndPing, webhookCase } from "./support.ts";
import { needsDecision } from "../profile.ts";

/** A ping through the endpoint, after an edit: the delivery it makes. */
async function pingAfterEdit(ctx: CaseContext, hook: Installed, config: Record<string, string>, secret: string | undefined) {
  const res = await hookRequest(ctx, hook.place, "update", { id: hook.id, json: { config } });
  checkHookStatus(ctx, res.status, 200, `PATCH ${placeName(hook.place)}/${hook.id} {config}`);
  checkSecretHidden(res.text, secret, `PATCH ${placeName(hook.place)}/${hook.id}`);
  check.equal(res.json<Hook>().config.url, hook.url, "the edited config keeps the url sent", "/body/config/url");
  const before = mark(ctx, hook.path);
  await pingNow(ctx, hook);
  return before.next("the ping sent by POST …/pings after the edit", isPingFor(hook.id));
}

/** The rules each case below enforces (spec/seed-rules.yaml, spec/DECISIONS.md). */
const RULES: Record<string, readonly string[]> = {
  "WEBHOOK-SIGNATURE-001": ["S-WEBHOOK-SIGNATURE", "D-SIGNATURE"],
  // "Sent when a secret is configured": that none is sent without one is the contract's word.
  "WEBHOOK-SIGNATURE-002": ["D-SIGNATURE"],
  // Form bodies are the contract's (the seed: a JSON body).
  "WEBHOOK-SIGNATURE-003": ["D-DELIVERY-CONTENT-TYPE", "S-WEBHOOK-SIGNATURE", "D-SIGNATURE"],
  "WEBHOOK-SIGNATURE-004": ["D-REF-HOOKS-PATCH-SECRET", "D-SCHEMA-SECRET", "S-WEBHOOK-SIGNATURE", "D-SIGNATURE", "D-HOOK-STATUSES"],
};

export const SIGNATURE_CASES: Case[] = withRules(RULES, [
  webhookCase("WEBHOOK-SIGNATURE-001", "With a secret, X-Hub-Signature (and, as the contract chose, X-Hub-Signature-256) are HMACs of the exact JSON bytes received", SEED.authentication, ["trigger"], async (ctx, id) => {
    const secret = freshSecret();
    await withHook(ctx, repoPlace(ctx), id, { events: ["push"], secret }, async (hook) => {
      const all = await pushAndPing(ctx, hook);
      for (const d of all) checkSignatures(ctx, d, secret, nameOf(d, all));
    });
  }),

  webhookCase("WEBHOOK-SIGNATURE-002", "Without a secret, deliveries carry no signature headers", SEED.authentication, ["trigger"], async (ctx, id) => {
    await withHook(ctx, repoPlace(ctx), id, { events: ["push"] }, async (hook) => {
      const all = await pushAndPing(ctx, hook);
      for (const d of all) checkNoSignatures(ctx, d, nameOf(d, all));
    });
  }),

  webhookCase("WEBHOOK-SIGNATURE-003", "A form hook's signatures are HMACs of the exact form bytes received (payload=…)", SEED.authentication, ["trigger"], async (ctx, id) => {
    needsDecision(ctx, "D-DELIVERY-CONTENT-TYPE", "a hook of content_type form");
    const secret = freshSecret();
    await withHook(ctx, repoPlace(ctx), id, { events: ["push"], contentType: "form", secret }, async (hook) => {
      const all = await pushAndPing(ctx, hook);
      for (const d of all) {
        checkMediaType(check, d, FORM_TYPE, `${nameOf(d, all)}: Content-Type is ${FORM_TYPE} (content_type form)`);
        checkSignatures(ctx, d, secret, nameOf(d, all));
      }
    });
  }),

  webhookCase("WEBHOOK-SIGNATURE-004", 'Editing config: a left-out secret keeps the signatures, a new secret signs, "" removes them', SEED.authentication, [], async (ctx, id) => {
    const first = freshSecret();
    await withHook(ctx, repoPlace(ctx), id, { events: ["push"], secret: first }, async (hook) => {
      await creationPing(ctx, hook);
      // Whether an edit that leaves the secret out keeps it is the contract's (the counterpart
      // replaced the whole config): unsigned then fails D-REF-HOOKS-PATCH-SECRET, not the seed;
      // signed, it must be the hook's one secret's HMAC (the seed).
      const kept = await pingAfterEdit(ctx, hook, { url: hook.url, content_type: "json" }, first);
      const signed = kept.headers["x-hub-signature"] !== undefined;
      ctx.rule("D-REF-HOOKS-PATCH-SECRET").ok(signed, "the ping after an edit leaving the secret out is signed: the edit kept the secret (D-REF-HOOKS-PATCH-SECRET)", { expected: "X-Hub-Signature", actual: "(no header)", pointer: "/headers/x-hub-signature" });
      if (signed) checkSignatures(ctx, kept, first, "the ping after an edit leaving the secret out (still signed with it)");
      const second = freshSecret();
      checkSignatures(ctx, await pingAfterEdit(ctx, hook, { url: hook.url, content_type: "json", secret: second }, second), second, "the ping after setting a new secret (signed with the new one)");
      checkNoSignatures(ctx, await pingAfterEdit(ctx, hook, { url: hook.url, content_type: "json", secret: "" }, undefined), 'the ping after setting secret "" (no secret, so unsigned)');
    });
  }),
]);
