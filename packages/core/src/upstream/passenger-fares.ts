/**
 * Per-passenger-type fares of an offer, shared out of the offer's base and taxes so that they always add up
 * to them exactly (the domain's invariant: an offer's totals are the sums of its fares).
 */
import type { PassengerFare, PassengerType } from "../domain/offer.js";
import type { Passengers } from "../query/query.js";
import { splitCentavos } from "./split-centavos.js";

/** What the wire says about one passenger type: its count and the weights its share is taken by. */
export interface FareShare {
  readonly type: PassengerType;
  readonly count: number;
  /** Relative weight of this type in the base (e.g. its price without taxes). */
  readonly baseWeight: number;
  /** Relative weight of this type in the taxes. */
  readonly taxWeight: number;
}

/** Reads a passenger-type code: `CHD`/`CNN`/`CH` child, `INF`/`INS` infant, anything else adult. */
export const passengerTypeOf = (code: string | null | undefined): PassengerType => {
  const c = (code ?? "").trim().toUpperCase();
  if (c === "CHD" || c === "CNN" || c === "CH" || c === "C") return "CHD";
  if (c === "INF" || c === "INS" || c === "IN" || c === "I") return "INF";
  return "ADT";
};

/** Shares by passenger count only, for answers that give no per-type prices. */
export const sharesByCount = (passengers: Passengers): FareShare[] =>
  (
    [
      ["ADT", Math.max(1, passengers.adults)],
      ["CHD", passengers.children],
      ["INF", passengers.infants],
    ] as const
  )
    .filter(([, count]) => count > 0)
    .map(([type, count]) => ({ type, count, baseWeight: count, taxWeight: count }));

/**
 * Builds the fares of an offer: `base` and `taxes` (centavos) are split by the shares' weights (taxes by the
 * base weights when no tax weight is given). Shares of the same type are merged; an empty list gives one
 * adult fare carrying everything.
 */
export const buildFares = (
  shares: readonly FareShare[],
  base: number,
  taxes: number,
  currency: string,
): PassengerFare[] => {
  const merged = new Map<PassengerType, FareShare>();
  for (const s of shares) {
    const prior = merged.get(s.type);
    merged.set(
      s.type,
      prior
        ? { ...s, count: prior.count + s.count, baseWeight: prior.baseWeight + s.baseWeight, taxWeight: prior.taxWeight + s.taxWeight }
        : s,
    );
  }
  const list = merged.size > 0 ? [...merged.values()] : [{ type: "ADT" as const, count: 1, baseWeight: 1, taxWeight: 1 }];
  const baseWeights = list.map((s) => s.baseWeight);
  const taxWeights = list.some((s) => s.taxWeight !== 0) ? list.map((s) => s.taxWeight) : baseWeights;
  const bases = splitCentavos(base, baseWeights);
  const taxParts = splitCentavos(taxes, taxWeights);
  return list.map((s, i) => ({
    type: s.type,
    count: Math.max(0, Math.round(s.count)),
    base: { amount: bases[i] ?? 0, currency },
    taxes: { amount: taxParts[i] ?? 0, currency },
  }));
};

/**
 * The fares with a seller's fee (signed centavos: negative for a discount) shared out by the fares' bases
 * (the fee is a percentage of the fare) and added to their taxes, each fare's share as its `serviceFee`.
 */
export const withServiceFee = (fares: readonly PassengerFare[], fee: number): PassengerFare[] => {
  if (fee === 0) return [...fares];
  const parts = splitCentavos(fee, fares.map((f) => f.base.amount));
  return fares.map((f, i) => {
    const each = parts[i] ?? 0;
    const currency = f.taxes.currency;
    // One literal: `{ ...f, serviceFee }` would make an object of the slow (dictionary) kind, several times larger.
    return each === 0
      ? f
      : { type: f.type, count: f.count, base: f.base, taxes: { amount: f.taxes.amount + each, currency }, serviceFee: { amount: each, currency }, listed: f.listed };
  });
};
