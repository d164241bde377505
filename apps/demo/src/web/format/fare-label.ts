import type { ModeAFlight, ModeASegment } from "@voar/core";

/** `LIGHT` as `Light`, `PREMIUM ECONOMY` as `Premium Economy`: a family's name, not a shout. */
const familyName = (family: string): string => family.toLowerCase().replace(/(^|\s)\p{L}/gu, (c) => c.toUpperCase());

/** What one fare includes: `Tarifa Light · só bagagem de mão`, `Tarifa Plus · 1 bagagem despachada`. */
export const fareLabel = (profile: ModeASegment["fareProfile"]): string =>
  [profile.fareFamily ? `Tarifa ${familyName(profile.fareFamily)}` : "", profile.baggage ? profile.baggage.texto : "só bagagem de mão"].filter((t) => t !== "").join(" · ");

const labelsOf = (segments: readonly ModeASegment[]): string => [...new Set(segments.map((s) => fareLabel(s.fareProfile)))].join(" ou ");

/**
 * What the fare of a price group includes, which is what sets two groups of the same flight apart (a Light fare
 * and a Plus fare with a bag): one label, or one per direction when they differ (`Ida: ... · Volta: ...`).
 */
export const groupFareLabel = (flight: Pick<ModeAFlight, "segments" | "segmentsBack">): string => {
  const outbound = labelsOf(flight.segments);
  const inbound = labelsOf(flight.segmentsBack ?? []);
  return inbound === "" || inbound === outbound ? outbound : `Ida: ${outbound}; volta: ${inbound}`;
};
