/**
 * An amount of money in integer minor units (centavos for BRL) plus its ISO 4217 currency.
 * Money is never a float in the domain; the wire's decimal numbers are converted at the contract's edge.
 */
export interface Money {
  /** Integer minor units (centavos). */
  readonly amount: number;
  /** ISO 4217 code, e.g. `BRL`. */
  readonly currency: string;
}

/** Builds a {@link Money} from integer minor units. Throws a RangeError on a non-integer amount (a programming error). */
export const money = (amount: number, currency = "BRL"): Money => {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`money amount must be an integer of minor units, got ${amount}`);
  return { amount, currency };
};

/** Converts a wire decimal (e.g. `1091.9599999999998`) to integer centavos, rounding half away from zero. */
export const centavosFromDecimal = (value: number): number => {
  const scaled = Math.round(Math.abs(value) * 100 + Number.EPSILON * 100);
  return value < 0 ? -scaled : scaled;
};

/** Money from a wire decimal. */
export const moneyFromDecimal = (value: number, currency = "BRL"): Money => money(centavosFromDecimal(value), currency);

/** Converts money to the wire's decimal number (exact to the centavo). */
export const toDecimal = (m: Money): number => m.amount / 100;

/** Adds amounts of the same currency. */
export const addMoney = (a: Money, b: Money): Money => {
  if (a.currency !== b.currency) throw new RangeError(`cannot add ${a.currency} to ${b.currency}`);
  return { amount: a.amount + b.amount, currency: a.currency };
};

/** Zero of a currency. */
export const zeroMoney = (currency = "BRL"): Money => ({ amount: 0, currency });
