import type { ModeAFlight, ModeASegment } from "@voar/core";

/** Points per adult of a Mode A price group: the outbound's, and the return's on a round trip. */
export interface GroupPoints {
  readonly outbound: number;
  /** Undefined for a one-way group. */
  readonly inbound?: number | undefined;
  /** Whether the group is a cash ("pagante") fare: no points on either way. */
  readonly cash: boolean;
}

const centavos = (value: number): number => Math.round(value * 100);

/**
 * The points of a price group. On a round trip the group's price is one outbound alternative plus one
 * return alternative; the pair shown is one whose fares (without taxes) add up to the group's, so the
 * points are those the price was made of (the first alternatives when every pair costs the same).
 */
export const groupPoints = (flight: ModeAFlight): GroupPoints => {
  const out = flight.segments;
  const back = flight.segmentsBack ?? [];
  const first = out[0];
  if (!first) return { outbound: -1, cash: true };
  if (back.length === 0) return { outbound: first.PontosAdulto, cash: first.PontosAdulto < 0 };
  const target = centavos(flight.fareGroup.priceWithoutTax);
  let pair: readonly [ModeASegment, ModeASegment] = [first, back[0]!];
  search: for (const o of out)
    for (const b of back)
      if (centavos(o.ValorSegmento) + centavos(b.ValorSegmento) === target) {
        pair = [o, b];
        break search;
      }
  const [o, b] = pair;
  return { outbound: o.PontosAdulto, inbound: b.PontosAdulto, cash: o.PontosAdulto < 0 || b.PontosAdulto < 0 };
};
