import { dayShift, formatClock, formatDuration, formatStops, formatZoneShift, zoneShiftMinutes } from "../../shared/pt-br-format.js";

/** What one itinerary line needs: both ends, the real duration and where it stops. */
export interface ItineraryEnds {
  readonly departure: string;
  readonly arrival: string;
  readonly departureDate: string;
  readonly arrivalDate: string;
  /** Minutes, time zones accounted for. */
  readonly duration: number;
  /** Airports of the connections. */
  readonly via: readonly string[];
  /** Flight numbers, e.g. `LA 3257`. */
  readonly flights: readonly string[];
}

/**
 * One itinerary on one line: local departure and arrival times (with `+1` for the next day), the real
 * duration, the stops, and the time-zone change when the two airports' clocks differ.
 */
export const ItineraryLine = ({ it }: { readonly it: ItineraryEnds }) => {
  const days = dayShift(it.departureDate, it.arrivalDate);
  const zone = formatZoneShift(zoneShiftMinutes(it.departureDate, it.arrivalDate, it.duration));
  const stops = it.via.length;
  return (
    <div class="itinerary">
      <div class="itinerary__times">
        <span class="itinerary__end">
          <time dateTime={it.departureDate}>{formatClock(it.departureDate)}</time>
          <span class="itinerary__code">{it.departure}</span>
        </span>
        <span class="itinerary__track" aria-hidden="true">
          <span class="itinerary__duration">{formatDuration(it.duration)}</span>
        </span>
        <span class="itinerary__end itinerary__end--arrival">
          <time dateTime={it.arrivalDate}>
            {formatClock(it.arrivalDate)}
            {days !== 0 ? (
              <sup class="itinerary__days" title={`chega ${days > 0 ? `${days} dia(s) depois` : "no dia anterior"}`}>
                {days > 0 ? `+${days}` : days}
              </sup>
            ) : null}
          </time>
          <span class="itinerary__code">{it.arrival}</span>
        </span>
      </div>
      <div class="itinerary__meta">
        <span class="sr-only">Duração {formatDuration(it.duration)}. </span>
        <span class={stops === 0 ? "tag tag--direct" : "tag"}>
          {formatStops(stops)}
          {stops > 0 ? ` (${it.via.join(", ")})` : ""}
        </span>
        {zone ? (
          <span class="tag tag--zone" title="Diferença entre os relógios da origem e do destino; a duração já a considera">
            {zone}
          </span>
        ) : null}
        <span class="itinerary__flights">{it.flights.join(" · ")}</span>
      </div>
    </div>
  );
};
