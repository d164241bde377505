import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { StringMap } from "../../src/engine/string-map.js";

const KEYS = Array.from({ length: 300 }, (_, n) => `offer-${n}`);
// A value of -1 deletes the key (a third of the operations).
const opArb = fc.record({ key: fc.constantFrom(...KEYS), value: fc.integer({ min: -3, max: 5 }).map((n) => Math.max(-1, n)) });
const opsArb = fc.array(opArb, { minLength: 1, maxLength: 400, size: "max" });

/**
 * Every version of a map built by `ops`, beside the plain Map it should equal. `batch`: ops in batches of that
 * many, each with an owner of its own (changes within it share their copies), and only each batch's last
 * version kept, as the engine keeps them.
 */
const versions = (empty: StringMap<number>, ops: readonly { key: string; value: number }[], batch = 1) => {
  let m = empty;
  let model = new Map<string, number>();
  const all: [StringMap<number>, Map<string, number>][] = [[m, model]];
  let owner: object | undefined;
  ops.forEach(({ key, value }, i) => {
    if (batch > 1 && i % batch === 0) owner = {};
    model = new Map(model);
    if (value < 0) {
      model.delete(key);
      m = m.delete(key);
    } else {
      model.set(key, value);
      m = m.set(key, value, owner);
    }
    if (batch === 1 || i % batch === batch - 1 || i === ops.length - 1) all.push([m, model]);
  });
  return all;
};

const contents = (m: StringMap<number>) => ({ size: m.size, entries: [...m].sort(([a], [b]) => (a < b ? -1 : 1)), got: KEYS.map((k) => m.get(k)) });
const expected = (model: Map<string, number>) => ({ size: model.size, entries: [...model].sort(([a], [b]) => (a < b ? -1 : 1)), got: KEYS.map((k) => model.get(k)) });

/**
 * Whether every version equals its model. Compared as JSON text first (undefined kept apart from null):
 * vitest's deep equality over some 400 versions of 300 keys each was most of these tests' time, so it runs
 * only to name the difference.
 */
const expectSameVersions = (all: readonly (readonly [StringMap<number>, Map<string, number>])[]) => {
  const actual = all.map(([m]) => contents(m));
  const wanted = all.map(([, model]) => expected(model));
  const text = (x: unknown) => JSON.stringify(x, (_, v: unknown) => (v === undefined ? "(undefined)" : v));
  if (text(actual) !== text(wanted)) expect(actual).toEqual(wanted);
};

describe("StringMap (properties)", () => {
  it("holds what a Map holds after the same sets and deletes, and every earlier version stays as it was", () => {
    fc.assert(
      fc.property(opsArb, (ops) => {
        expectSameVersions(versions(StringMap.empty(), ops));
      }),
      { numRuns: 30 },
    );
  });

  it("the same when changes come in batches that share their copies: each batch's last version, and every one before it, as it was", () => {
    fc.assert(
      fc.property(opsArb, fc.integer({ min: 2, max: 40 }), (ops, batch) => {
        expectSameVersions(versions(StringMap.empty(), ops, batch));
      }),
      { numRuns: 30 },
    );
  });

  it("keeps keys apart when their hashes collide, wholly or in part", () => {
    // Few distinct hashes: keys share their first five 5-bit fragments (n % 7 in each), differ or not in
    // the sixth (n % 2), and share the rest: many full collisions, many long common prefixes.
    const weak = (s: string) => {
      const n = Number(s.slice(6));
      return (n % 7) * 0x108421 + (n % 2) * (1 << 25);
    };
    fc.assert(
      fc.property(opsArb, (ops) => {
        expectSameVersions(versions(StringMap.empty(weak), ops));
      }),
      { numRuns: 30 },
    );
  });

  it("answers itself when a set or a delete changes nothing", () => {
    const m = StringMap.of([["a", 1], ["b", 2]]);
    expect(m.set("a", 1)).toBe(m);
    expect(m.set("a", 3)).not.toBe(m);
    expect(m.get("a")).toBe(1);
    expect(m.delete("c")).toBe(m);
    expect(m.delete("a").size).toBe(1);
  });
});
