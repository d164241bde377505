/**
 * Other sellers' prices for the flight of a Mode B offer (`Outros[]`), as offers of their own. The wire
 * gives each only a total (`Valor`), a cabin, a booking option and the seller: their taxes are taken as the
 * main offer's boarding fees, without its seller's discount (boarding fees do not depend on who sells; fees
 * and discounts do), capped at their total; their airline price is the main offer's airline fare with those
 * taxes; their discount, fare family and checked bags are unknown (none, none, 0); they are cash offers.
 */
import { centavosFromDecimal } from "../domain/money.js";
import { boardingTaxesOf, checkedOnly, type Offer } from "../domain/offer.js";
import { readItem, type SkipLog } from "./item-reader.js";
import { upstreamOutroSchema } from "./mode-b-schema.js";
import { offerId } from "./offer-ids.js";
import { buildFares, withServiceFee, type FareShare } from "./passenger-fares.js";
import { baggageFromLines } from "./baggage.js";
import type { UpstreamTarifa } from "./mode-b-schema.js";
import { otaSeller, safeUrl } from "./seller.js";

/**
 * The offers of `outros` (raw `Outros[]` members at wire path `path`) for the flight of `main`; fares split
 * like the main offer's (`shares`). Members without a price or a seller name are left out and noted in `log`.
 * Ids are `<main token>:<seller id>` under the source, so they stay stable across polls.
 */
export const alternativeOffers = (
  main: Offer,
  outros: readonly unknown[],
  shares: readonly FareShare[],
  path: string,
  log: SkipLog,
): Offer[] =>
  outros.flatMap((raw, k): Offer[] => {
    const at = `${path}.Outros[${k}]`;
    const outro = readItem(upstreamOutroSchema, raw, at, log);
    if (!outro) return [];
    const seller = otaSeller(outro.Nome, outro.Site, outro.Url);
    if (!seller) {
      log.note(at, "vendedor sem nome");
      return [];
    }
    const { currency } = main.total;
    const total = centavosFromDecimal(outro.Valor);
    const taxes = Math.min(boardingTaxesOf(main), total);
    const token = main.fareToken ? `${main.fareToken}:${seller.id}` : undefined;
    const { miles: _paidInCash, fareFamily: _unknownFamily, discount: _mainSellers, ...flight } = main;
    return [
      {
        ...flight,
        id: offerId(main.sourceId, token, { seller, flightKey: main.flightKey, miles: undefined }),
        seller,
        fares: buildFares(shares, total - taxes, taxes, currency),
        total: { amount: total, currency },
        taxes: { amount: taxes, currency },
        airlinePrice: withTaxes(main, taxes),
        cabin: outro.Cabine?.trim() || main.cabin,
        bookingOption: outro.OpcaoReserva?.trim() ?? "",
        baggage: checkedOnly(0),
        fareToken: "",
      },
    ];
  });

/** The main offer's airline fare with other taxes; 0 when it has no airline price. */
const withTaxes = (main: Offer, taxes: number) => {
  const fare = main.airlinePrice.amount - main.taxes.amount;
  return { amount: main.airlinePrice.amount > 0 && fare > 0 ? fare + taxes : 0, currency: main.airlinePrice.currency };
};

/**
 * An option's fare and its seller's fee (signed centavos) from its total: the main offer's boarding fees,
 * and its seller's discount percentage applied to the option's own fare (`total = fare + boarding - fare x
 * percent / 100`). The fare is never negative.
 */
const optionMoney = (main: Offer, total: number): { readonly fare: number; readonly fee: number } => {
  const boarding = Math.min(boardingTaxesOf(main), total);
  // A percentage the main offer is not charged (an award fare's) is not charged on its options either.
  const charged = main.discount !== undefined && main.discount.amount.amount !== 0;
  const keep = 1 - (main.discount?.percent ?? 0) / 100;
  if (!charged || keep <= 0) {
    const taxes = Math.min(main.taxes.amount, total);
    return { fare: total - taxes, fee: 0 };
  }
  const fare = Math.round((total - boarding) / keep);
  return fare >= 0 ? { fare, fee: total - boarding - fare } : { fare: total - boarding, fee: 0 };
};

/**
 * The main offer's seller's other fares for its flight (`Tarifas[1..]` with a total, as Voar writes a
 * comparison: spec 2.6 keeps `Outros` for other sellers), as offers of their own. Each carries its own total,
 * booking option, fare family, bags, token and link (the link names it whatever its place, like an
 * `Outros` member's); its money follows `optionMoney` (the main offer's boarding fees and discount
 * percentage). Members without a total are fare families of the main offer itself, not options, and give
 * nothing.
 */
export const fareOptionOffers = (main: Offer, tarifas: readonly (UpstreamTarifa | null)[], shares: readonly FareShare[]): Offer[] =>
  tarifas.slice(1).flatMap((t, k): Offer[] => {
    if (!t || t.ValorTotalComTaxa === undefined || t.ValorTotalComTaxa === null) return [];
    const { currency } = main.total;
    const total = centavosFromDecimal(t.ValorTotalComTaxa);
    const { fare, fee } = optionMoney(main, total);
    const taxes = total - fare;
    const option = t.OpcaoReserva?.trim() || t.Tipo?.trim() || "";
    const family = t.Tipo?.trim() && t.Tipo.trim() !== option ? t.Tipo.trim() : undefined;
    const url = safeUrl(t.Url);
    const seller = url !== "" ? { ...main.seller, url } : main.seller;
    const token = t.Token?.trim() || (main.fareToken ? `${main.fareToken}:opcao${k + 1}` : undefined);
    const { fareFamily: _mainFamily, discount: _mainAmount, ...flight } = main;
    // Options of an award offer keep its uncharged percentage, as their main offer does.
    const discount = fee !== 0 && main.discount ? { percent: main.discount.percent, amount: { amount: -fee, currency } } : main.discount?.amount.amount === 0 ? main.discount : undefined;
    return [
      {
        ...flight,
        id: offerId(main.sourceId, token, { seller, flightKey: main.flightKey, miles: main.miles }),
        seller,
        fares: withServiceFee(buildFares(shares, fare, taxes - fee, currency), fee),
        total: { amount: total, currency },
        taxes: { amount: taxes, currency },
        ...(discount ? { discount } : {}),
        airlinePrice: withTaxes(main, taxes),
        cabin: t.Classe?.trim() || main.cabin,
        bookingOption: option,
        ...(family ? { fareFamily: family } : {}),
        baggage: baggageFromLines(t.BagagensInclusas ?? []),
        fareToken: t.Token?.trim() ?? "",
      },
    ];
  });
