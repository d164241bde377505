/**
 * Other sellers' prices for the flight of a Mode B offer (`Outros[]`), as offers of their own. The wire
 * gives each only a total (`Valor`), a cabin, a booking option and the seller: their taxes are taken as the
 * main offer's without its seller's service fee (boarding fees do not depend on who sells; fees and
 * discounts do), capped at their total; their airline price is the main offer's; their fare family is
 * unknown and their checked bags too, so 0; they are cash offers.
 */
import { centavosFromDecimal } from "../../domain/money.js";
import { checkedOnly, serviceFeeOf, type Offer } from "../../domain/offer.js";
import { readItem, type SkipLog } from "./item-reader.js";
import { upstreamOutroSchema } from "./mode-b-schema.js";
import { offerId } from "./offer-ids.js";
import { buildFares, type FareShare } from "./passenger-fares.js";
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
    const taxes = Math.min(main.taxes.amount - serviceFeeOf(main), total);
    const token = main.fareToken ? `${main.fareToken}:${seller.id}` : undefined;
    const { miles: _paidInCash, fareFamily: _unknownFamily, ...flight } = main;
    return [
      {
        ...flight,
        id: offerId(main.sourceId, token, { seller, flightKey: main.flightKey, miles: undefined }),
        seller,
        fares: buildFares(shares, total - taxes, taxes, currency),
        total: { amount: total, currency },
        taxes: { amount: taxes, currency },
        cabin: outro.Cabine?.trim() || main.cabin,
        bookingOption: outro.OpcaoReserva?.trim() ?? "",
        baggage: checkedOnly(0),
        fareToken: "",
      },
    ];
  });

/**
 * The main offer's seller's other fares for its flight (`Tarifas[1..]` with a total, as Voar writes a
 * comparison: spec 2.6 keeps `Outros` for other sellers), as offers of their own. Each carries its own total,
 * booking option, fare family, bags, token and link (the link names it whatever its place, like an
 * `Outros` member's); taxes are the main offer's, capped at the total. Members without a total are fare
 * families of the main offer itself, not options, and give nothing.
 */
export const fareOptionOffers = (main: Offer, tarifas: readonly (UpstreamTarifa | null)[], shares: readonly FareShare[]): Offer[] =>
  tarifas.slice(1).flatMap((t, k): Offer[] => {
    if (!t || t.ValorTotalComTaxa === undefined || t.ValorTotalComTaxa === null) return [];
    const { currency } = main.total;
    const total = centavosFromDecimal(t.ValorTotalComTaxa);
    const taxes = Math.min(main.taxes.amount, total);
    const option = t.OpcaoReserva?.trim() || t.Tipo?.trim() || "";
    const family = t.Tipo?.trim() && t.Tipo.trim() !== option ? t.Tipo.trim() : undefined;
    const url = safeUrl(t.Url);
    const seller = url !== "" ? { ...main.seller, url } : main.seller;
    const token = t.Token?.trim() || (main.fareToken ? `${main.fareToken}:opcao${k + 1}` : undefined);
    const { fareFamily: _mainFamily, ...flight } = main;
    return [
      {
        ...flight,
        id: offerId(main.sourceId, token, { seller, flightKey: main.flightKey, miles: main.miles }),
        seller,
        fares: buildFares(shares, total - taxes, taxes, currency),
        total: { amount: total, currency },
        taxes: { amount: taxes, currency },
        cabin: t.Classe?.trim() || main.cabin,
        bookingOption: option,
        ...(family ? { fareFamily: family } : {}),
        baggage: baggageFromLines(t.BagagensInclusas ?? []),
        fareToken: t.Token?.trim() ?? "",
      },
    ];
  });
