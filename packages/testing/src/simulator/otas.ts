import { money, type Offer } from "@voar/core";
import { airlineFareOf, type FareOption, type FlightFares } from "./flight-fares.js";
import { makeOffer, type QuoteContext } from "./offer-builder.js";
import { passengerFares, type PerPassenger } from "./pricing.js";
import { rngFor, unitHash } from "./prng.js";

/** A fictional online travel agency of the simulator. */
export interface SimulatedOta {
  /** Source and seller id, `ota:<slug>`. */
  readonly id: string;
  readonly name: string;
  /** Its site, on the reserved `.example` domain. */
  readonly site: string;
  /** Share of the flights on a route it quotes. */
  readonly coverage: number;
  /** Markup on the airline's fare, drawn per flight in this range (negative: cheaper than the airline). */
  readonly markup: readonly [min: number, max: number];
  /**
   * Its fee as a percentage of the fare without taxes, as upstreams send it (`Taxas.Servico`), added to the
   * taxes; negative for a discount (`-5`: 5 % off the fare).
   */
  readonly feePercent: number;
  /** What it resells. `miles`: tickets it issues with bought miles, sold for cash well below the airline's fare. */
  readonly sells: readonly FareOption[];
  /** Companhia ids it sells; every airline when absent. */
  readonly airlineIds?: readonly number[] | undefined;
}

/** The OTAs of the simulator. Names and sites are invented; the sites are on the reserved `.example` domain. */
export const SIMULATED_OTAS: readonly SimulatedOta[] = [
  { id: "ota:voaja", name: "VoaJá", site: "voaja.example", coverage: 0.9, markup: [-0.04, 0.08], feePercent: 3, sells: ["light", "plus"] },
  { id: "ota:passagem-certa", name: "Passagem Certa", site: "passagemcerta.example", coverage: 0.8, markup: [0, 0.12], feePercent: 0, sells: ["light", "business"] },
  { id: "ota:milhas-e-cia", name: "Milhas & Cia", site: "milhasecia.example", coverage: 0.7, markup: [-0.55, -0.2], feePercent: 5, sells: ["miles"] },
  { id: "ota:ceu-aberto", name: "Céu Aberto Viagens", site: "ceuaberto.example", coverage: 0.85, markup: [-0.06, 0.05], feePercent: 2, sells: ["light", "plus", "business"] },
  { id: "ota:bilhete-facil", name: "Bilhete Fácil", site: "bilhetefacil.example", coverage: 0.75, markup: [0.02, 0.15], feePercent: -5, sells: ["light"], airlineIds: [1, 2, 3] },
];

const scale = (p: PerPassenger, factor: number): PerPassenger => ({
  adult: Math.round(p.adult * factor),
  child: Math.round(p.child * factor),
  infant: Math.round(p.infant * factor),
});

/**
 * What an OTA quotes for the flights of every airline on a route: the same flights (same `flightKey`),
 * at the airline's fare times its markup, plus its fee (or minus its discount: `discount`), a percentage of
 * the fare, in the taxes. A miles reseller quotes only flights whose programme has award seats, at a deep
 * discount on the Light fare. Its airline price is the airline's fare with the offer's own taxes and fees, as
 * upstreams compute the saving (fare against fare; the seller's discount is not a saving on the airline).
 */
export const otaOffers = (ctx: QuoteContext, ota: SimulatedOta, flights: readonly FlightFares[]): readonly Offer[] => {
  const offers: Offer[] = [];
  for (const flight of flights) {
    if (ota.airlineIds && !ota.airlineIds.includes(flight.profile.airlineId)) continue;
    if (unitHash(ctx.seed, "covers", ota.id, flight.key) >= ota.coverage) continue;
    for (const option of ota.sells) {
      const base = option === "miles" ? (flight.award ? flight.cash.light : undefined) : flight.cash[option];
      if (!base) continue;
      const rng = rngFor(ctx.seed, "markup", ota.id, flight.key, option);
      const quoted = scale(base, 1 + rng.between(ota.markup[0], ota.markup[1]));
      const fares = passengerFares(flight.passengers, quoted, flight.taxes).map((f) => {
        const fee = Math.round((f.base.amount * ota.feePercent) / 100);
        return fee === 0 ? f : { ...f, taxes: money(f.taxes.amount + fee), serviceFee: money(fee) };
      });
      const fee = fares.reduce((sum, f) => sum + (f.serviceFee?.amount ?? 0), 0);
      const discount = fee === 0 ? undefined : { percent: -ota.feePercent, amount: money(-fee) };
      const taxes = fares.reduce((sum, f) => sum + f.taxes.amount, 0);
      const airlineFare = airlineFareOf(flight, option);
      const airlinePrice = money(airlineFare > 0 ? airlineFare + taxes : 0);
      offers.push(makeOffer(ctx, { flight, option, fares, airlinePrice, discount }));
    }
  }
  return offers;
};
