import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { hasMember, memberCount, memberId, memberIds, oneMember, removeMember, setMember, SMALL_MEMBERS, type Members } from "../../src/engine/members.js";
import { reduce } from "../../src/engine/reduce.js";
import { initialSnapshot, type SearchSnapshot } from "../../src/engine/snapshot.js";
import type { SearchQuery } from "../../src/query/query.js";
import { byPrice, groupOffers } from "../../src/views/select.js";
import { makeOffer, queryA } from "../support/offers.js";

const KEYS = Array.from({ length: SMALL_MEMBERS * 2 + 5 }, (_, n) => `k${n}`);

/** What a reader of the members sees, and what the model says it should. */
const seen = (m: Members) => ({ count: memberCount(m), ids: [...memberIds(m)].sort(), byKey: KEYS.map((k) => [memberId(m, k), hasMember(m, k)]) });
const expected = (model: ReadonlyMap<string, string>) => ({ count: model.size, ids: [...model.values()].sort(), byKey: KEYS.map((k) => [model.get(k), model.has(k)]) });

/** Keys from a space larger than the flat form holds, so groups cross it both ways. */
const keyArb = fc.constantFrom(...KEYS);
// More sets than removes, so that groups grow past the flat form and shrink back.
const opArb = fc.oneof(
  { weight: 3, arbitrary: fc.record({ set: keyArb, id: fc.integer({ min: 0, max: 3 }).map((n) => `id${n}`) }) },
  { weight: 1, arbitrary: fc.record({ remove: keyArb }) },
);

describe("group members (properties)", () => {
  it("behave as a map from member key to offer id, small or large, and every earlier version stays as it was", () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 20, maxLength: 120, size: "max" }), (ops) => {
        let m = oneMember("k0", "id0");
        let model = new Map([["k0", "id0"]]);
        const versions: [Members, Map<string, string>][] = [[m, model]];
        for (const op of ops) {
          model = new Map(model);
          if ("set" in op) {
            m = setMember(m, op.set, op.id);
            model.set(op.set, op.id);
          } else {
            m = removeMember(m, op.remove);
            model.delete(op.remove);
          }
          versions.push([m, model]);
        }
        expect(versions.map(([version]) => seen(version))).toEqual(versions.map(([, model]) => expected(model)));
      }),
    );
  });
});

describe("a comparison group with more sellers than the flat form holds", () => {
  const modeB: SearchQuery = { ...queryA, mode: { kind: "ota-comparison" } };
  const sellers = Array.from({ length: SMALL_MEMBERS * 2 }, (_, i) => `ota:s${String(i).padStart(2, "0")}`);

  it("lists every seller's current offer, cheapest first, as sellers arrive, are refined and move away", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ seller: fc.constantFrom(...sellers), total: fc.integer({ min: 0, max: 20 }).map((n) => 30_000 + n * 1_000), flight: fc.constantFrom(1, 2) }), { minLength: 40, maxLength: 150, size: "max" }),
        fc.integer({ min: 1, max: 10 }),
        (specs, batch) => {
          // The same seller of the same flight keeps its id: a later spec refines it (and may move it to the other flight's group).
          const offers = specs.map((r) => ({ ...makeOffer({ seller: r.seller, total: r.total, flightNumber: r.flight }), id: `${r.seller}` }));
          let s: SearchSnapshot = initialSnapshot(modeB, [{ id: "s", name: "S" }]);
          for (let i = 0; i < offers.length; i += batch) s = reduce(s, { type: "batch", sourceId: "s", offers: offers.slice(i, i + batch) });
          const latest = new Map(offers.map((o) => [o.id, o]));
          for (const group of s.outbound.groups.values()) {
            const expected = [...latest.values()].filter((o) => o.flightKey === group.key).sort(byPrice);
            const listed = groupOffers(s, group, byPrice);
            expect(listed.map((o) => o.id)).toEqual(expected.map((o) => o.id));
            expect(group.price).toBe(expected[0]!.total.amount);
          }
          const grouped = [...s.outbound.groups.values()].reduce((n, g) => n + memberCount(g.members), 0);
          expect(grouped).toBe(latest.size);
        },
      ),
    );
  });
});
