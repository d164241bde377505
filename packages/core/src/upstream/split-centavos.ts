/**
 * Splits an integer amount of centavos into parts proportional to weights, by the largest-remainder method,
 * so the parts always add up to the amount exactly: money read from the wire is shared out, never created
 * or lost by rounding. The amount must be an integer (a RangeError otherwise: a bug in the caller).
 * Negative or non-finite weights count as zero; when every weight is zero the amount is split evenly.
 * Ties in the remainders go to the earlier part. A negative amount (a discount) is split like its
 * magnitude and negated; its weights may be given negative too (the discount each part gets).
 *
 * @example
 * splitCentavos(1000, [1, 1, 1]); // [334, 333, 333]
 * splitCentavos(32041, [28685, 3356]); // [28685, 3356]
 */
export const splitCentavos = (amount: number, weights: readonly number[]): number[] => {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`cannot split ${amount} centavos`);
  if (amount < 0) {
    const magnitudes = weights.some((w) => w < 0) ? weights.map((w) => -w) : weights;
    return splitCentavos(-amount, magnitudes).map((p) => (p === 0 ? 0 : -p));
  }
  if (weights.length === 0) return [];
  const clean = weights.map((w) => (Number.isFinite(w) && w > 0 ? w : 0));
  const sum = clean.reduce((a, b) => a + b, 0);
  const shares = sum > 0 ? clean.map((w) => (amount * w) / sum) : clean.map(() => amount / clean.length);
  const parts = shares.map(Math.floor);
  let left = amount - parts.reduce((a, b) => a + b, 0);
  const order = shares
    .map((s, i) => ({ i, rest: s - Math.floor(s) }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) parts[order[k]!.i]! += 1;
  return parts;
};
