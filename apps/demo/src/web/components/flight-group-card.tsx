import type { ModeAFlight } from "@voar/core";
import { groupPoints } from "../../shared/group-points.js";
import { formatBrl } from "../../shared/pt-br-format.js";
import { groupFareLabel } from "../format/fare-label.js";
import { passengersText } from "../format/passengers.js";
import { JsonBlock } from "./json-viewer.js";
import { LegList } from "./leg-list.js";
import { PriceBlock } from "./price-block.js";
import { SegmentOptions } from "./segment-options.js";

interface FlightGroupCardProps {
  readonly flight: ModeAFlight;
  /** Position in the whole result (1-based), as the API orders it. */
  readonly position: number;
}

/**
 * One Mode A price group: its price (miles plus taxes, or cash), the airline, the outbound options and,
 * on a round trip, the return options beside them; legs, baggage and the group's JSON on demand.
 */
export const FlightGroupCard = ({ flight, position }: FlightGroupCardProps) => {
  const fg = flight.fareGroup;
  const back = flight.segmentsBack ?? [];
  const points = groupPoints(flight);
  return (
    <article class="flight" data-testid="grupo" data-cia={flight.validatingBy.name} aria-label={`${position}º: ${flight.validatingBy.name}, ${formatBrl(fg.priceWithTax)}`}>
      <header class="flight__airline">
        <span class="airline-badge" aria-hidden="true">
          {flight.validatingBy.iata}
        </span>
        <span class="flight__airline-name">{flight.validatingBy.name}</span>
        <span class="flight__position">#{position}</span>
      </header>
      <PriceBlock
        total={fg.priceWithTax}
        taxes={fg.priceWithTax - fg.priceWithoutTax}
        points={points.cash ? -1 : points.outbound}
        returnPoints={points.cash ? undefined : points.inbound}
        saving={fg.percentualEconomia}
        savingBase={`${formatBrl(fg.priceInCompany)} na companhia`}
        passengers={passengersText(fg.fares)}
        fare={groupFareLabel(flight)}
      />
      <div class={back.length > 0 ? "flight__ways flight__ways--round" : "flight__ways"}>
        <SegmentOptions title="Ida" segments={flight.segments} />
        {back.length > 0 ? <SegmentOptions title="Volta" segments={back} /> : null}
      </div>
      <details class="flight__details">
        <summary>Detalhes do voo</summary>
        <LegList title="Ida" segment={flight.segments[0]} />
        {back[0] ? <LegList title="Volta" segment={back[0]} /> : null}
        <p class="muted">
          Programa: {flight.segments[0]?.FidelityProgram ?? "—"}
          {flight.segments[0]?.fareProfile.fareFamily ? ` · Família: ${flight.segments[0].fareProfile.fareFamily}` : ""} · Tarifa: {fg.fares.map((f) => `${f.passengersType} ×${f.passengersCount} ${formatBrl(f.priceWithTax)}`).join(", ")}
        </p>
        <JsonBlock label="JSON deste grupo" value={flight} />
      </details>
    </article>
  );
};
