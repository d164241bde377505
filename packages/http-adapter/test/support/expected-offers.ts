import { MalformedPayload, readUpstreamAnswer, type Offer, type SearchQuery } from "@voar/core";
import { airports } from "@voar/core/airports";
import { consultarAnswers, type Fixture } from "@voar/testing";
import { stableOfferIds } from "../../src/upstream/offer-identity.js";

/** The offers of the last successful answer of a fixture, read and named as the source `sourceId` does. */
export const finalOffers = (fixture: Fixture, sourceId: string, query: SearchQuery): Offer[] => {
  const last = consultarAnswers(fixture).filter((r) => r.status === 200 && r.json !== undefined).at(-1);
  if (!last) return [];
  const read = readUpstreamAnswer(last.json, { airports, sourceId, query });
  if (read instanceof MalformedPayload || !read.success) return [];
  return stableOfferIds(read.offers);
};

/** What a traveller sees of an offer: the flight, the seller, the price, the miles. */
export const visible = (o: Offer): string =>
  [o.flightKey, o.seller.id, o.total.amount, o.taxes.amount, o.miles?.pointsAdult ?? "cash", o.itinerary.durationMinutes].join("|");
