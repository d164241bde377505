/**
 * Included baggage as upstreams state it, into the domain's {@link Baggage}: Mode A's fare profile
 * (`baggage: { type: "CHECKED_BAGGAGE", quantity, texto }` plus `services[]` with `HAND_LUGGAGE`) and Mode B's
 * `BagagensInclusas[]` lines (`Bagagem` 0 carry-on, 1 checked; `Quantidade`; `TextoBagagem`). The source's
 * own words are kept; counts are per passenger.
 */
import type { Baggage } from "../domain/offer.js";

/** A count from the wire: a finite number rounded, never negative. */
const pieces = (n: number | null | undefined): number => (typeof n === "number" && Number.isFinite(n) ? Math.max(0, Math.round(n)) : 0);

const joined = (texts: readonly (string | null | undefined)[]): string =>
  texts.map((t) => t?.trim() ?? "").filter((t) => t !== "").join("; ");

/** One `BagagensInclusas[]` line as read. */
export interface IncludedBagLine {
  readonly Bagagem?: number | null | undefined;
  readonly Quantidade?: number | null | undefined;
  readonly TextoBagagem?: string | null | undefined;
}

/**
 * Baggage from `BagagensInclusas[]` lines. `atLeastChecked` is a count stated elsewhere (`QtdBagagemInclusa`):
 * the larger of it and the checked lines wins, because real answers send `QtdBagagemInclusa: 0` beside a
 * line `Até 1 bagagens para despachar`.
 */
export const baggageFromLines = (lines: readonly (IncludedBagLine | null)[], atLeastChecked = 0): Baggage => {
  const present = lines.filter((l): l is IncludedBagLine => l !== null);
  const checked = present.filter((l) => l.Bagagem === 1);
  const cabin = present.filter((l) => l.Bagagem === 0);
  const checkedCount = Math.max(
    pieces(atLeastChecked),
    checked.reduce((n, l) => n + pieces(l.Quantidade), 0),
  );
  return {
    checked: checkedCount,
    checkedText: joined(checked.map((l) => l.TextoBagagem)),
    ...(cabin.length > 0 ? { cabin: cabin.reduce((n, l) => n + pieces(l.Quantidade ?? 1), 0) } : {}),
    cabinText: joined(cabin.map((l) => l.TextoBagagem)),
  };
};

/** A Mode A fare profile's baggage member as read. */
export interface ProfileBaggage {
  readonly isIncluded?: boolean | null | undefined;
  readonly type?: string | null | undefined;
  readonly quantity?: number | null | undefined;
  readonly texto?: string | null | undefined;
}

/** A Mode A fare profile's service as read. */
export interface ProfileService {
  readonly type?: string | null | undefined;
  readonly isIncluded?: boolean | null | undefined;
  readonly description?: string | null | undefined;
  readonly Number?: number | null | undefined;
}

/**
 * Baggage from a Mode A fare profile: checked bags from `baggage` (an included `CHECKED_BAGGAGE`, or an
 * untyped one), carry-on from the included `HAND_LUGGAGE` services (`Number` pieces, 1 when absent).
 */
export const baggageFromProfile = (
  bag: ProfileBaggage | null | undefined,
  services: readonly (ProfileService | null)[] | null | undefined,
): Baggage => {
  const checkedIncluded = bag && bag.isIncluded !== false && (!bag.type || /checked/i.test(bag.type));
  const hand = (services ?? []).filter(
    (s): s is ProfileService => s !== null && s.isIncluded !== false && /hand|carry|cabin/i.test(s.type ?? ""),
  );
  return {
    checked: checkedIncluded ? pieces(bag.quantity) : 0,
    checkedText: checkedIncluded ? (bag.texto?.trim() ?? "") : "",
    ...(hand.length > 0 ? { cabin: hand.reduce((n, s) => n + (typeof s.Number === "number" ? pieces(s.Number) : 1), 0) } : {}),
    cabinText: joined(hand.map((s) => s.description)),
  };
};
