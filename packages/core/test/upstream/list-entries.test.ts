/**
 * Reading chosen entries of an offer list on their own gives, entry by entry, the offers the whole answer's
 * reading gives: on the real recorded answers of both shapes, and on items of one shape carrying a list of
 * the other.
 */
import { expect, it } from "vitest";
import { airports } from "../../src/airports/index.js";
import { MalformedPayload } from "../../src/errors/source-errors.js";
import { withUniqueIds } from "../../src/upstream/offer-ids.js";
import { readListEntries, readUpstreamAnswer, type OfferListMember, type ReadContext } from "../../src/upstream/index.js";
import { describeRecorded, loadRecorded, RECORDED } from "./recorded-answers.js";

type Json = Record<string, unknown>;
const ctx: ReadContext = { airports, sourceId: "upstream" };

/** Every entry of every list of an answer read on its own, in answer order, suffixed over the answer. */
const entryByEntry = (json: Json) => {
  const whole = readUpstreamAnswer(json, ctx);
  if (whole instanceof MalformedPayload) throw whole;
  const offers = (json.Data as Json[]).flatMap((item, i) =>
    (["flights", "Ida", "Volta"] as OfferListMember[]).flatMap((member) => {
      const list = item[member];
      if (!Array.isArray(list)) return [];
      // Asked in reverse: each entry's offers must not depend on which others are read with it.
      const indices = list.map((_, k) => k).reverse();
      const read = readListEntries(item, i, member, indices, ctx, whole.searchToken);
      expect(read).toBeDefined();
      return read!.map((e, k) => ({ k: indices[k]!, offers: e.offers })).sort((a, b) => a.k - b.k).flatMap((e) => e.offers);
    }),
  );
  return { whole: whole.offers, entries: withUniqueIds(offers) };
};

describeRecorded("entries read on their own, real recorded answers", () => {
  it.each([RECORDED.modeAComplete, RECORDED.perAirlineGol])("%s: the whole answer's offers, entry by entry", (file) => {
    const { whole, entries } = entryByEntry(loadRecorded(file) as Json);
    expect(whole.length).toBeGreaterThan(0);
    expect(entries).toEqual(whole);
  });
});

it("an item of one shape gives no offers for a list of the other, as the whole answer does; an unreadable entry says so", () => {
  const item = { flights: [], Ida: [{ Companhia: "GOL" }] };
  expect(readListEntries(item, 0, "Ida", [0], ctx, undefined)).toEqual([{ offers: [], unreadable: false }]);
  const broken = { Ida: [{ ValorTotal: "not a number", Voos: "nope" }] };
  expect(readListEntries(broken, 0, "Ida", [0], ctx, undefined)).toEqual([{ offers: [], unreadable: true }]);
});
