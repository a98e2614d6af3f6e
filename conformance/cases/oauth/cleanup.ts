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
import { leftToRemove } from "./made.ts";
import { removeAuthorization, tokenStatus } from "./nonweb-support.ts";
import { revokeToken } from "./support.ts";

export async function cleanUp(ctx: CaseContext): Promise<void> {
  const { tokens, authorizations } = leftToRemove(ctx);
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
}

/**
 * Puts cleanUp in a `finally` around the case's run. The case object itself is changed (once), not
 * copied: the area tables (NONWEB_CASES, …) and the registry hold the same case.
 */
const wrapped = new WeakSet<Case>();
export function withCleanUp(c: Case): Case {
  if (wrapped.has(c)) return c;
  const run = c.run.bind(c);
  c.run = async (ctx) => {
    try {
      await run(ctx);
    } finally {
      await cleanUp(ctx);
    }
  };
  wrapped.add(c);
  return c;
}
