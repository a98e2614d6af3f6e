/**
 * OAUTH-REVIEW-*: the authorization review link (seed: Endpoints › D › Authorization review link —
 * "A user can review and revoke an application's authorization at
 * {auth_url}/settings/connections/applications/:client_id (for end users, in a browser)"). The
 * seed's part: a signed-in user with a grant gets the page there, and revoking on it makes the
 * application's token stop working. The contract's (D-OAUTH-REVIEW-PAGE): 200 `text/html` with a
 * grant, the login page when signed out, 404 when the signed-in user has no grant — also when
 * another user has one. The pages are read as a browser without script would (the login form
 * of the form driver's field names, cookies kept); a profile with the browser driver skips them.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import { check } from "../../core/failure.ts";
import { formData } from "../../authorize/html-forms.ts";
import { OAUTH_NEEDS, revokeToken, tokenFor } from "./support.ts";
import { tokenStatus } from "./nonweb-support.ts";
import { hasLoginForm, isHtml, loginFields, reviewAs, reviewUrl, revokeButton } from "./review-session.ts";

// The review page as a browser reads it lives in review-session.ts (the tidying up uses it too); the review cases' neighbours import it from here.
export { hasLoginForm, isHtml, loginFields, reviewAs, reviewUrl, Session } from "./review-session.ts";

export const REVIEW_SEED = "Endpoints › D › Authorization review link";

export const REVIEW_CASES: Case[] = [
  {
    id: "OAUTH-REVIEW-001",
    title: "The review page shows the login page when signed out, and 404 to a signed-in user without a grant while another user has one",
    area: "oauth",
    seed: REVIEW_SEED,
    rules: ["D-OAUTH-REVIEW-PAGE"],
    needs: [...OAUTH_NEEDS, "second-user"],
    async run(ctx) {
      loginFields(ctx);
      const { token } = await tokenFor(ctx, "gist");
      try {
        const { signedOut, page } = await reviewAs(ctx, ctx.profile.users[1]!);
        check.status(signedOut.status, 200, "signed out: the review page answers the login page (200)");
        check.ok(isHtml(signedOut) && hasLoginForm(ctx, signedOut), "signed out: the answer is the login page", { expected: "text/html with the login form", actual: `${signedOut.headers.get("content-type")} ${signedOut.text.slice(0, 160)}`, pointer: "/body" });
        check.status(page.status, 404, `signed in as ${ctx.profile.users[1]!.login}, who has no grant for the application (${ctx.profile.users[0]!.login} has one): 404`);
        check.ok(isHtml(page), "the 404 is an HTML page", { expected: "text/html", actual: page.headers.get("content-type"), pointer: "/headers/content-type" });
      } finally {
        await revokeToken(ctx, token);
      }
    },
  },
  {
    id: "OAUTH-REVIEW-002",
    title: "A signed-in user with a grant reviews it at /settings/connections/applications/:client_id and revokes it there: the token is refused",
    area: "oauth",
    seed: REVIEW_SEED,
    rules: ["S-OAUTH-REVIEW-LINK", "D-OAUTH-REVIEW-PAGE", "D-REF-OAUTH-REVIEW-REVOKE"],
    needs: [...OAUTH_NEEDS, "user"],
    async run(ctx) {
      loginFields(ctx);
      const { token } = await tokenFor(ctx, "gist");
      let revoked = false;
      try {
        const { session, page, url } = await reviewAs(ctx, ctx.profile.users[0]!);
        check.status(page.status, 200, "the user with a grant gets the review page");
        check.ok(isHtml(page), "the review page is HTML for a browser", { expected: "text/html", actual: page.headers.get("content-type"), pointer: "/headers/content-type" });
        const revoke = revokeButton(page);
        check.ok(revoke, "the review page has a Revoke button (seed: the user reviews and revokes there)", { expected: "a form with a Revoke button", actual: page.text.replace(/\s+/g, " ").slice(0, 300), pointer: "/body" });
        const done = await session.post(url, revoke.form.action, formData(revoke.form, {}, revoke.button));
        check.ok(done.status < 400, "pressing Revoke is accepted", { expected: "a page or a redirect", actual: `${done.status} ${done.text.replace(/\s+/g, " ").slice(0, 160)}`, pointer: "/status" });
        revoked = true;
        const after = await tokenStatus(ctx, token);
        check.ok(after >= 400 && after < 500, "after revoking on the review page, the application's token is refused", { expected: "a 4xx refusal", actual: after, pointer: "/status" });
        const again = await session.get(reviewUrl(ctx), true);
        ctx.rule("D-OAUTH-REVIEW-PAGE").status(again.status, 404, "once revoked, the review page answers 404 (no grant any more)");
      } finally {
        if (!revoked) await revokeToken(ctx, token);
      }
    },
  },
];
