import type { ModeAFlight } from "@voar/core";
import { groupPoints } from "../shared/group-points.js";
import { formatBrl, formatMiles } from "../shared/pt-br-format.js";

/**
 * How a price group is paid, for the CLI's tables: `58.800 milhas + R$ 33,56` per adult (outbound plus
 * return points on a round trip: `12.000 + 10.500 milhas + R$ 151,30`), or `pagante` for a cash fare.
 */
export const groupPayment = (flight: ModeAFlight): string => {
  const points = groupPoints(flight);
  if (points.cash) return "pagante";
  const taxes = flight.fareGroup.priceWithTax - flight.fareGroup.priceWithoutTax;
  return `${formatMiles(points.outbound, points.inbound)} + ${formatBrl(taxes)}`;
};

/** `58.800 milhas + R$ 33,56` for a one-way offer, or `pagante` (negative points). */
export const offerPayment = (pontos: number, taxes: number): string => (pontos < 0 ? "pagante" : `${formatMiles(pontos)} + ${formatBrl(taxes)}`);
