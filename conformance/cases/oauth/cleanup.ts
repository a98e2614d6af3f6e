/**
 * The `finally` of every OAuth case (index.ts wraps each one): whatever the case made and did not
 * remove itself (made.ts) is removed, whatever its checks said — each access token an exchange
 * handed out (revokeToken: the application API, else the seed's review page), each authorization
 * a Basic request created (tidy: DELETE /authorizations/:id, with a fresh two-factor code for the
 * two-factor user). A token already refused is left alone (a grant revoked on the review page
 * took it with it). Nothing here is validated or checked: clean-up decides no verdict, and what
 * it cannot remove is a `left behind:` note.
 */
import type { Case, CaseContext } from "../../core/types.ts";
import { leftToRemove, rememberGrant } from "./made.ts";
import { removeAuthorization, tokenStatus } from "./nonweb-support.ts";
import { app, grantHeld, revokeOnReviewPage, revokeToken } from "./support.ts";

export async function cleanUp(ctx: CaseContext, grantBefore?: boolean): Promise<void> {
  const { tokens, authorizations, grant } = leftToRemove(ctx);
  // Authorizations first: deleting one also ends its token, which then needs no revocation.
  // The two-factor user's: each with a code later than the last one sent (each code is good once).
  let lastCode: string | undefined;
  for (const a of authorizations) {
    const twoFactor = a.otp !== undefined;
    const sent = await removeAuthorization(ctx, a.basic, a.id, twoFactor ? (lastCode ?? a.otp) : undefined);
    if (twoFactor) lastCode = sent;
  }
  for (const token of tokens) {
    const status = await tokenStatus(ctx, token, { validate: false }).catch(() => 0);
    if (status >= 400 && status < 500) continue;
    await revokeToken(ctx, token);
  }
  if (grant) await removeGrant(ctx, grantBefore);
}

/**
 * A target where revoking a token keeps its grant (the counterpart's did) still holds, after the
 * tokens, the grant the case's web flow made — which would answer a later case's authorize at
 * once, with these scopes (the seed's automatic completion). users[0] revokes it on the seed's
 * review page — only when the case made it: a grant that was there before the case (the
 * profile's own token, or any token the suite did not make, hangs on it) is never touched.
 */
async function removeGrant(ctx: CaseContext, before: boolean | undefined): Promise<void> {
  if (before !== false) return;
  if ((await grantHeld(ctx)) !== true) return;
  try {
    await revokeOnReviewPage(ctx);
  } catch (error) {
    ctx.note(`left behind: users[0]'s grant for ${app(ctx).clientId}, which the case's web flow made — the review page did not revoke it (${(error as Error).message})`);
  }
}

/**
 * Puts cleanUp in a `finally` around the case's run. The case object itself is changed (once), not
 * copied: the area tables (NONWEB_CASES, …) and the registry hold the same case.
 */
const wrapped = new WeakSet<Case>();
export function withCleanUp(c: Case): Case {
  if (wrapped.has(c)) return c;
  const run = c.run.bind(c);
  c.run = async (outer) => {
    // Every approval that reaches a code may make a grant, whichever way the case goes on.
    const ctx: CaseContext = {
      ...outer,
      authorize: async (query, options) => {
        const location = await outer.authorize(query, options);
        if (location.searchParams.has("code")) rememberGrant(ctx);
        return location;
      },
    };
    // Whether users[0] held a grant for the application before the case: only one the case made is removed.
    const grantBefore = c.needs?.includes("app") ? await grantHeld(outer) : undefined;
    // The requests of the check before and the clean-up after are not the case's: its exchanges
    // and a failure's curl line (the client's last request) stay its own.
    outer.http.exchanges.length = 0;
    outer.http.lastSent = undefined;
    try {
      await run(ctx);
    } finally {
      const last = outer.http.lastSent;
      const own = outer.http.exchanges.length;
      await cleanUp(ctx, grantBefore);
      outer.http.exchanges.length = own;
      outer.http.lastSent = last;
    }
  };
  wrapped.add(c);
  return c;
}
