/** The in-memory ETag store: basic get/set/delete and least-recently-used eviction. */
import { describe, expect, it } from "vitest";
import { MemoryEtagStore } from "../../runtime/client/index.ts";

const entry = (etag: string) => ({ etag, body: [etag], headers: {} });

describe("MemoryEtagStore", () => {
  it("stores, replaces and deletes", () => {
    const store = new MemoryEtagStore();
    store.set("a", entry('"1"'));
    store.set("a", entry('"2"'));
    expect(store.get("a")?.etag).toBe('"2"');
    store.delete("a");
    expect(store.get("a")).toBeUndefined();
  });

  it("evicts the least recently used entry", () => {
    const store = new MemoryEtagStore(2);
    store.set("a", entry("a"));
    store.set("b", entry("b"));
    store.get("a"); // a is now the most recently used
    store.set("c", entry("c"));
    expect(store.get("b")).toBeUndefined();
    expect(store.get("a")?.etag).toBe("a");
    expect(store.get("c")?.etag).toBe("c");
    expect(store.size).toBe(2);
  });
});
