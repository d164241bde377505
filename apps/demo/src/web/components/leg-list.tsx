import type { ModeASegment } from "@voar/core";
import { formatCabin, formatClock, formatDuration, minutesBetween } from "../../shared/pt-br-format.js";

/** The legs of one itinerary: flight, aircraft, cabin, times, connection waits, and what is included. */
export const LegList = ({ title, segment }: { readonly title: string; readonly segment: ModeASegment | undefined }) => {
  if (!segment) return null;
  const profile = segment.fareProfile;
  const included = [
    ...profile.services.filter((s) => s.isIncluded).map((s) => s.description),
    profile.baggage ? profile.baggage.texto : "nenhuma bagagem despachada",
  ];
  return (
    <div class="legs">
      <h4 class="legs__title">{title}</h4>
      <ol class="legs__list">
        {segment.legs.map((leg, i) => {
          const previous = segment.legs[i - 1];
          return (
            <li key={`${leg.flightNumber}-${leg.departureDate}`}>
              {previous ? <p class="legs__wait">Conexão em {leg.departure}: {formatDuration(minutesBetween(previous.arrivalDate, leg.departureDate))}</p> : null}
              <p>
                <strong>
                  {leg.managedBy.iata} {leg.flightNumber}
                </strong>{" "}
                {leg.departure} {formatClock(leg.departureDate)} → {leg.arrival} {formatClock(leg.arrivalDate)} · {formatDuration(leg.duration)}
                {leg.aircraftCode ? ` · avião ${String(leg.aircraftCode)}` : ""} · {formatCabin(leg.seatClass.description)}
                {leg.operatedBy.iata !== leg.managedBy.iata ? ` · operado por ${leg.operatedBy.name}` : ""}
              </p>
            </li>
          );
        })}
      </ol>
      <p class="muted" data-testid="tarifa">
        {profile.fareFamily ? `Tarifa ${profile.fareFamily} · ` : ""}Inclui: {included.join(", ")}
      </p>
    </div>
  );
};
