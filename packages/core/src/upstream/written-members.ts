/**
 * Members an upstream writes that tell nothing more than how that upstream writes them, kept with the offer so
 * the writers give them back as the upstream wrote them (docs/wire-semantics.md, "Members written as the source
 * wrote them"): what a fare family lists (`Tarifas[0]`: LATAM's boarding fee 0, the family's own fare on award
 * offers), the bag counts (`QntdBagagem`, `QtdBagagemInclusa`: 0 beside a listed bag), the seller's percentage on
 * an award fare it does not charge (`Taxas.Servico` -10, +25), and a child's points on a cash fare (`PontosCrianca`
 * 0 on LATAM's). None of them changes what the offer costs.
 */
import { centavosFromDecimal, type Money } from "../domain/money.js";
import type { ListedFare, PassengerFare, Seller, SellerDiscount } from "../domain/offer.js";
import type { UpstreamTarifa } from "./mode-b-schema.js";

const finite = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);

/** A count as written, when it is one (a finite number, rounded, never negative). */
export const writtenCount = (v: number | null | undefined): number | undefined => (finite(v) ? Math.max(0, Math.round(v)) : undefined);

/**
 * The seller, with the child's points its cash fare is written with when they are not -1 (LATAM's 0); the
 * seller as it is for an award fare (whose points are its `MilesPrice`) and when the answer says -1 or nothing.
 */
export const withCashChildPoints = (seller: Seller, award: boolean, points: number | null | undefined): Seller =>
  award || !finite(points) || Math.round(points) === -1 ? seller : { ...seller, cashChildPoints: Math.round(points) };

/**
 * The percentage an award fare carries in `Taxas.Servico` without being charged it (the upstream applies it
 * to cash fares only): a discount of nothing, kept for its percentage. Undefined when there is none.
 */
export const uncharged = (servico: number | null | undefined, currency: string): SellerDiscount | undefined =>
  finite(servico) && servico !== 0 ? { percent: -servico, amount: { amount: 0, currency } } : undefined;

/**
 * The fares with what the offer's fare family (`tarifa`, its `Tarifas[]` member naming the family) lists for
 * ONE adult (`ValorAdulto`, `TaxaEmbarque`) and ONE child (`ValorCrianca`); the fares as they are without one.
 */
export const withListedFares = (fares: readonly PassengerFare[], tarifa: UpstreamTarifa | undefined, currency: string): PassengerFare[] => {
  if (!tarifa) return [...fares];
  const money = (v: number | null | undefined): Money | undefined => (finite(v) ? { amount: centavosFromDecimal(v), currency } : undefined);
  const adult = money(tarifa.ValorAdulto);
  const child = money(tarifa.ValorCrianca);
  const boarding = money(tarifa.TaxaEmbarque);
  return fares.map((f) => {
    const fare = f.type === "ADT" ? adult : f.type === "CHD" ? child : undefined;
    if (!fare) return f;
    const listed: ListedFare = f.type === "ADT" && boarding ? { fare, boarding } : { fare };
    return { type: f.type, count: f.count, base: f.base, taxes: f.taxes, serviceFee: f.serviceFee, listed };
  });
};
