import type { ModeBOffer } from "@voar/core";

/** What a Mode B offer saves against buying the same seats from the airline, like for like. */
export interface AirlineSaving {
  /** The airline's own price for the same passengers, taxes included (reais): what the percentage is of. */
  readonly airlinePrice: number;
  /** `airlinePrice` less the offer's total with taxes (reais); negative when the offer costs more. */
  readonly amount: number;
  /** `amount` as a percentage of `airlinePrice`. */
  readonly percent: number;
  /** The seller's discount included in the offer's total, in percent of the fare (`-Taxas.Servico`); 0 for none. */
  readonly sellerDiscountPercent: number;
}

const cents = (value: number): number => Math.round(value * 100) / 100;

/**
 * The offer's total with taxes against the airline's own price with taxes for the same passengers: the
 * airline's fare (`ValorAdultoNaCia`, one adult without taxes, scaled to the booking by `ValorTotal /
 * ValorAdulto`) plus the boarding fees (`ValorTotalTaxas` without the seller's percentage on a cash fare,
 * `ValorTotal x Taxas.Servico / 100`). Undefined when the answer gives no airline price (Livelo's seats).
 *
 * It may differ from the answer's `PercentualEconomia`, which compares fares at the offer's own taxes and so
 * leaves the seller's fee or discount out: here the buyer's own question is answered, what the seats cost at
 * the airline against what they cost here, the seller's discount included.
 */
export const airlineSaving = (o: ModeBOffer): AirlineSaving | undefined => {
  if (!(o.ValorAdultoNaCia > 0)) return undefined;
  const ratio = o.ValorAdulto > 0 ? o.ValorTotal / o.ValorAdulto : Math.max(1, o.Adultos);
  const award = o.PontosAdulto >= 0;
  const servico = award ? 0 : o.Taxas.Servico;
  const boarding = o.ValorTotalTaxas - (o.ValorTotal * servico) / 100;
  const airlinePrice = cents(o.ValorAdultoNaCia * ratio + boarding);
  if (!(airlinePrice > 0)) return undefined;
  const amount = cents(airlinePrice - o.ValorTotalComTaxa);
  return { airlinePrice, amount, percent: (amount / airlinePrice) * 100, sellerDiscountPercent: servico < 0 ? -servico : 0 };
};
