import { describe, expect, it } from "vitest";
import { BoundedMap } from "../src/util/bounded-map.js";

const keys = (m: BoundedMap<string, number>, candidates: readonly string[]) => candidates.filter((k) => m.get(k) !== undefined);

describe("BoundedMap", () => {
  it("keeps at most its capacity, forgetting the least recently used key", () => {
    const m = new BoundedMap<string, number>(3);
    m.set("a", 1);
    m.set("b", 2);
    m.set("c", 3);
    expect(m.get("a")).toBe(1); // a is now the newest: b is the oldest
    m.set("d", 4);
    expect(m.size).toBe(3);
    expect(m.get("b")).toBeUndefined();
    expect(m.get("a")).toBe(1);
    m.set("a", 10);
    expect(m.get("a")).toBe(10);
    m.delete("a");
    expect(m.get("a")).toBeUndefined();
    expect(m.size).toBe(2);
  });

  it("a key used after every insertion is never forgotten; unused, it goes after a capacity of newer keys", () => {
    const m = new BoundedMap<string, number>(16);
    m.set("hot", 0);
    const filler = Array.from({ length: 64 }, (_, i) => `k${i}`);
    // Used after every insertion, the hot key is never forgotten, whatever the number of other keys.
    for (const [i, k] of filler.entries()) {
      m.set(k, i);
      expect(m.get("hot")).toBe(0);
    }
    expect(m.size).toBe(16);
    expect(keys(m, filler)).toEqual(filler.slice(-15));
    // Not used, it goes like any other key once 16 newer ones came.
    for (const k of filler.slice(0, 16)) m.set(`${k}'`, 1);
    expect(m.get("hot")).toBeUndefined();
  });

  it("a key used right after its insertion outlives the keys inserted before it", () => {
    const m = new BoundedMap<string, number>(16);
    for (let i = 0; i < 16; i++) m.set(`old${i}`, i);
    m.set("fresh", 1);
    for (let i = 0; i < 1_000; i++) expect(m.get("fresh")).toBe(1);
    for (let i = 0; i < 15; i++) m.set(`new${i}`, i);
    expect(m.get("fresh")).toBe(1);
    expect(keys(m, Array.from({ length: 16 }, (_, i) => `old${i}`))).toEqual([]);
  });
});
