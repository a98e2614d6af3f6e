/** checkReachable: each URL is tried once however often it is given, and answers in any status count as reachable. */
import { describe, expect, it } from "vitest";
import { checkReachable } from "../../conformance/run/preflight.ts";

describe("checkReachable", () => {
  it("tries a URL given twice (API and web host the same) once", async () => {
    const tried: string[] = [];
    const fetchImpl = (async (url: string) => {
      tried.push(url);
      if (url.includes("down")) throw new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
      return new Response("not here", { status: 404 });
    }) as unknown as typeof fetch;
    expect(await checkReachable(["http://up.test", "http://up.test"], 1000, fetchImpl)).toEqual([]);
    expect(tried).toEqual(["http://up.test"]);
    expect(await checkReachable(["http://down.test", "http://down.test", "http://up.test"], 1000, fetchImpl)).toEqual([{ url: "http://down.test", reason: "ECONNREFUSED" }]);
    expect(tried).toEqual(["http://up.test", "http://down.test", "http://up.test"]);
  });
});
