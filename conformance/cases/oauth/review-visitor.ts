/**
 * OAUTH-REVIEW-003: the review page never shows a user's grant to a visitor who is not signed in
 * as that user — also right after that user viewed it (a page cached or kept per server, not per
 * session, would). The seed: "A user can review and revoke an application's authorization at
 * {auth_url}/settings/connections/applications/:client_id (for end users, in a browser)" — the
 * user's own authorization; a visitor who has signed in as nobody has none to review, and must not
 * be handed someone else's Revoke button (S-OAUTH-REVIEW-LINK). What the visitor gets instead is
 * the contract's: the login page (D-OAUTH-REVIEW-PAGE).
 */
import type { Case } from "../../core/types.ts";
import type { HttpResponse } from "../../core/http.ts";
import { check } from "../../core/failure.ts";
import { extractForms } from "../../authorize/html-forms.ts";
import { OAUTH_NEEDS, revokeToken, tokenFor } from "./support.ts";
import { hasLoginForm, isHtml, loginFields, REVIEW_SEED, reviewAs, reviewUrl, Session } from "./review-page.ts";

function revokeButtons(res: HttpResponse): number {
  return extractForms(res.text).flatMap((form) => form.buttons.filter((b) => /revoke/i.test(`${b.text} ${b.value}`))).length;
}

export const REVIEW_VISITOR_CASES: Case[] = [
  {
    id: "OAUTH-REVIEW-003",
    title: "Right after a user reviewed their grant, a visitor who is not signed in gets no grant and no Revoke button on the review page",
    area: "oauth",
    seed: REVIEW_SEED,
    rules: ["S-OAUTH-REVIEW-LINK", "D-OAUTH-REVIEW-PAGE"],
    needs: [...OAUTH_NEEDS, "user"],
    async run(ctx) {
      loginFields(ctx);
      const user = ctx.profile.users[0]!;
      const { token } = await tokenFor(ctx, "gist");
      try {
        const { page } = await reviewAs(ctx, user);
        check.status(page.status, 200, `signed in as ${user.login}, who has a grant: the review page`);
        check.ok(revokeButtons(page) > 0, "the user's review page has a Revoke button (the seed: the user reviews and revokes there)", { expected: "a form with a Revoke button", actual: page.text.replace(/\s+/g, " ").slice(0, 300), pointer: "/body" });
        // A new browser: no cookie of the user's session.
        const visitor = await new Session(ctx).get(reviewUrl(ctx), true);
        check.ok(visitor.status < 500, "a visitor not signed in gets an answer", { actual: visitor.status, pointer: "/status" });
        check.ok(revokeButtons(visitor) === 0, `a visitor not signed in is not shown ${user.login}'s grant: no Revoke button`, { expected: "no Revoke button", actual: visitor.text.replace(/\s+/g, " ").slice(0, 300), pointer: "/body" });
        check.ok(visitor.text !== page.text, `a visitor not signed in does not get ${user.login}'s review page`, { expected: "another page than the signed-in user's", actual: visitor.text.replace(/\s+/g, " ").slice(0, 300), pointer: "/body" });
        const contract = ctx.rule("D-OAUTH-REVIEW-PAGE");
        contract.status(visitor.status, 200, "a visitor not signed in gets the login page (200)");
        contract.ok(isHtml(visitor) && hasLoginForm(ctx, visitor), "a visitor not signed in gets the login page", { expected: "text/html with the login form", actual: `${visitor.headers.get("content-type")} ${visitor.text.slice(0, 160)}`, pointer: "/body" });
      } finally {
        await revokeToken(ctx, token);
      }
    },
  },
];
