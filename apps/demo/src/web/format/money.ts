/** pt-BR money and miles, as a Brazilian traveller reads them. */

const brl = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });
const integer = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 0 });

/** `R$ 1.091,96`. */
export const formatBrl = (value: number): string => brl.format(value);

/** `14.691`. */
export const formatPoints = (value: number): string => integer.format(value);

/** `38%` from a percentage (`37.83`). */
export const formatPercent = (value: number): string => `${integer.format(value)}%`;

/** Whether a points value marks a cash ("pagante") fare: a negative value, -1 on the wire. */
export const isCash = (points: number): boolean => points < 0;
