import { LIVELO, airlineById, money, type Offer } from "@voar/core";
import { faresOf, type FlightFares } from "./flight-fares.js";
import { makeOffer, type QuoteContext } from "./offer-builder.js";
import { rngFor, unitHash } from "./prng.js";

/** The airlines whose seats Livelo sells for its points in the simulator: LATAM, GOL, Azul. */
export const LIVELO_PARTNERS: readonly number[] = [1, 2, 3];

/** Share of the partners' flights with Livelo award seats. */
const LIVELO_SHARE = 0.5;

/**
 * What Livelo (Companhia 34) sells: award seats on its partners' flights, priced in Livelo points (not the
 * airline's own programme), the boarding taxes in cash. Points per real of the Light fare are drawn per
 * flight between 60 and 90, rounded to hundreds. Like real answers, a Livelo seat carries no airline price
 * (`priceInCompany` and `ValorAdultoNaCia` 0): Livelo sells no cash fare of the airline's to compare with.
 */
export const liveloOffers = (ctx: QuoteContext, flights: readonly FlightFares[]): readonly Offer[] => {
  const offers: Offer[] = [];
  const programme = airlineById(LIVELO)?.programme ?? "Livelo";
  for (const flight of flights) {
    if (!LIVELO_PARTNERS.includes(flight.profile.airlineId)) continue;
    if (unitHash(ctx.seed, "livelo-seats", flight.key) >= LIVELO_SHARE) continue;
    const light = faresOf(flight, "light");
    const adult = light?.find((f) => f.type === "ADT");
    if (!light || !adult) continue;
    const perReal = rngFor(ctx.seed, "livelo-points", flight.key).between(60, 90);
    const pointsAdult = Math.max(100, Math.round(((adult.base.amount / adult.count / 100) * perReal) / 100) * 100);
    // What the points are worth in cash at R$ 0.01 each, so the offer's total compares with the cash fares.
    const fares = light.map((f) => ({ ...f, base: money(f.type === "INF" ? f.base.amount : pointsAdult * f.count) }));
    offers.push(
      makeOffer(
        { ...ctx },
        {
          flight,
          option: "miles",
          fares,
          airlinePrice: money(0),
          miles: {
            pointsAdult,
            pointsChild: flight.passengers.children > 0 ? pointsAdult : 0,
            taxes: money(fares.reduce((sum, f) => sum + f.taxes.amount, 0)),
            programme,
          },
        },
      ),
    );
  }
  return offers.map((o) => ({ ...o, airlineId: LIVELO, airlinePrice: money(0) }));
};
