import type { ModeASegment } from "@voar/core";
import { useState } from "preact/hooks";
import { formatDay } from "../../shared/pt-br-format.js";
import { ItineraryLine, type ItineraryEnds } from "./itinerary-line.js";

/** A Mode A segment (one alternative itinerary) as an itinerary line. */
export const segmentEnds = (s: ModeASegment): ItineraryEnds => ({
  departure: s.departure,
  arrival: s.arrival,
  departureDate: s.departureDate,
  arrivalDate: s.arrivalDate,
  duration: s.duration,
  via: s.legs.slice(0, -1).map((l) => l.arrival),
  flights: s.legs.map((l) => `${l.managedBy.iata} ${l.flightNumber}`),
});

interface SegmentOptionsProps {
  /** `Ida` or `Volta`. */
  readonly title: string;
  readonly segments: readonly ModeASegment[];
}

/**
 * One direction of a price group: its first itinerary, and the other itineraries at the same price behind
 * a toggle (`segments` are alternatives, not consecutive legs).
 */
export const SegmentOptions = ({ title, segments }: SegmentOptionsProps) => {
  const [open, setOpen] = useState(false);
  const [first, ...others] = segments;
  if (!first) return null;
  return (
    <div class="way">
      <div class="way__head">
        <span class="way__title">{title}</span>
        <span class="way__day">{formatDay(first.departureDate)}</span>
      </div>
      <ItineraryLine it={segmentEnds(first)} />
      {others.length > 0 ? (
        <>
          <button type="button" class="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? "Ocultar horários" : `+${others.length} ${others.length === 1 ? "horário" : "horários"} no mesmo preço`}
          </button>
          {open ? (
            <ul class="way__alternatives">
              {others.map((s) => (
                <li key={s.rateToken}>
                  <ItineraryLine it={segmentEnds(s)} />
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </div>
  );
};
