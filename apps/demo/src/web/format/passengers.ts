/** Passenger counts in words. */

const TYPE: Readonly<Record<string, readonly [string, string]>> = {
  ADT: ["adulto", "adultos"],
  CHD: ["criança", "crianças"],
  INF: ["bebê", "bebês"],
};

/** `2 adultos e 1 criança` from the fares of a price. */
export const passengersText = (fares: readonly { readonly passengersType: string; readonly passengersCount: number }[]): string => {
  const parts = fares
    .filter((f) => f.passengersCount > 0)
    .map((f) => {
      const [one, many] = TYPE[f.passengersType] ?? [f.passengersType, f.passengersType];
      return `${f.passengersCount} ${f.passengersCount === 1 ? one : many}`;
    });
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} e ${parts.at(-1)}`;
};
