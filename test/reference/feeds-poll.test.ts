/**
 * The X-Poll-Interval rule (reference/feeds/poll-interval.ts, DECISIONS "Activity feeds:
 * polling"): 60 s below 50 feed requests per second over the last 10 seconds, 120 s below 200,
 * 180 s above, and back down as the window slides. A clock stands in for load here; the HTTP
 * tests check the header on every 200 and 304.
 */
import { describe, expect, it } from "vitest";
import { PollInterval } from "../../reference/feeds/poll-interval.ts";

describe("X-Poll-Interval", () => {
  it("grows with the request rate and shrinks back", () => {
    let now = 1_000_000;
    const poll = new PollInterval(() => now);
    expect(poll.current()).toBe(60);
    for (let i = 0; i < 499; i++) poll.hit();
    expect(poll.current()).toBe(60); // 49.9/s
    expect(poll.hit()).toBe(120); // 50/s
    for (let i = 0; i < 1500; i++) poll.hit();
    expect(poll.current()).toBe(180); // 200/s
    now += 5_000;
    expect(poll.current()).toBe(180); // still inside the window
    now += 5_000;
    expect(poll.current()).toBe(60); // the busy second left the window
  });

  it("forgets everything after a long pause", () => {
    let now = 0;
    const poll = new PollInterval(() => now);
    for (let i = 0; i < 3000; i++) poll.hit();
    now += 3_600_000;
    expect(poll.hit()).toBe(60);
  });
});
