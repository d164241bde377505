import { airlineById, money, type Offer } from "@voar/core";
import { airlinePriceOf, faresOf, type FareOption, type FlightFares } from "./flight-fares.js";
import { makeOffer, type QuoteContext } from "./offer-builder.js";

const CASH_OPTIONS = ["light", "plus", "max", "business"] as const satisfies readonly FareOption[];

/**
 * What an airline's own store sells for its flights: every cash fare family it sells ("pagante" offers,
 * no miles) and, where its programme has award seats, the award fare: points per adult and child plus
 * the boarding taxes in cash. The award offer's `total` is the cash value of the points plus the taxes,
 * and its `airlinePrice` the Light cash price, so that it shows the saving.
 */
export const airlineOffers = (ctx: QuoteContext, flights: readonly FlightFares[]): readonly Offer[] => {
  const offers: Offer[] = [];
  for (const flight of flights) {
    for (const option of CASH_OPTIONS) {
      const fares = faresOf(flight, option);
      if (fares) offers.push(makeOffer(ctx, { flight, option, fares, airlinePrice: airlinePriceOf(flight, option) }));
    }
    const fares = faresOf(flight, "miles");
    if (!fares || !flight.award) continue;
    offers.push(
      makeOffer(ctx, {
        flight,
        option: "miles",
        fares,
        airlinePrice: airlinePriceOf(flight, "miles"),
        miles: {
          pointsAdult: flight.award.adult,
          pointsChild: flight.passengers.children > 0 ? flight.award.child : 0,
          taxes: money(fares.reduce((sum, f) => sum + f.taxes.amount, 0)),
          programme: airlineById(flight.profile.airlineId)?.programme ?? flight.profile.slug,
        },
      }),
    );
  }
  return offers;
};
