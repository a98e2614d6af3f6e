/** Response headers the API hooks set on every response, so handlers need not (see api-hooks.ts). */
export const SUPPLIED_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-OAuth-Scopes", "X-Accepted-OAuth-Scopes"] as const;
export type Supplied = (typeof SUPPLIED_HEADERS)[number];
