import type { ModeBOffer } from "@voar/core";
import { passengersText } from "../format/passengers.js";
import { formatBrl, formatDay, formatPercent } from "../../shared/pt-br-format.js";
import { airlineSaving } from "../../shared/airline-saving.js";
import { nextInCabin } from "../search/comparison-rows.js";
import { ComparisonTable } from "./comparison-table.js";
import { ItineraryLine, type ItineraryEnds } from "./itinerary-line.js";
import { JsonBlock } from "./json-viewer.js";
import { PriceBlock } from "./price-block.js";

/** A Mode B offer as an itinerary line. */
export const offerEnds = (o: ModeBOffer): ItineraryEnds => ({
  departure: o.Origem,
  arrival: o.Destino,
  departureDate: o.Saida,
  arrivalDate: o.Chegada,
  duration: o.Duracao,
  via: o.Voos.slice(0, -1).map((v) => v.Destino),
  flights: o.Voos.map((v) => v.Numero.replace("-", " ")),
});

interface OfferCardProps {
  readonly offer: ModeBOffer;
  /** Mode B: show the best offer's seller and the other OTAs; a single-airline search has none. */
  readonly comparison: boolean;
  readonly infants: number;
}

/** One flight of Mode B (or of a single-airline search): its best offer, the saving, and the OTA comparison. */
export const OfferCard = ({ offer, comparison, infants }: OfferCardProps) => {
  const others = offer.Outros ?? [];
  // Like for like: the offer's total with taxes against the airline's price with taxes, shown beside it.
  const saving = airlineSaving(offer);
  const discount = saving && saving.sellerDiscountPercent > 0 ? `; inclui ${formatPercent(saving.sellerDiscountPercent)} de desconto da agência` : "";
  // The next agency in the same cabin: an Executiva fare is no saving against an Econômica one.
  const next = nextInCabin(offer);
  const airline = offer.Cia?.Nome ?? "—";
  const passengers = passengersText([
    { passengersType: "ADT", passengersCount: offer.Adultos },
    { passengersType: "CHD", passengersCount: offer.Criancas },
    { passengersType: "INF", passengersCount: infants },
  ]);
  return (
    <article class="offer" data-testid="oferta" data-cia={airline} aria-label={`${offer.FlightCode}, ${airline}, ${formatBrl(offer.ValorTotalComTaxa)}`}>
      <header class="flight__airline">
        <span class="airline-badge" aria-hidden="true">
          {offer.Cia?.Iata ?? "?"}
        </span>
        <span class="flight__airline-name">{airline}</span>
        <span class="flight__position">{formatDay(offer.Saida)}</span>
      </header>
      <PriceBlock
        total={offer.ValorTotalComTaxa}
        taxes={offer.ValorTotalTaxas}
        points={offer.PontosAdulto}
        saving={saving?.percent ?? 0}
        savingBase={saving ? `${formatBrl(saving.airlinePrice)} na companhia, com taxas${discount}` : ""}
        passengers={passengers}
      />
      <div class="flight__ways">
        <ItineraryLine it={offerEnds(offer)} />
      </div>
      {comparison ? (
        <div class="offer__best">
          <p>
            Melhor oferta: <strong data-testid="melhor-oferta">{offer.Nome}</strong> <span class="muted">({offer.Site})</span>{" "}
            <a href={offer.UrlPesquisa ?? undefined} target="_blank" rel="noopener noreferrer">
              Ver oferta
            </a>
          </p>
          {next ? (
            <p class="saving saving--strong" data-testid="economia">
              Economize {formatBrl(next.difference)} frente à próxima agência ({next.nome}, {next.cabine})
            </p>
          ) : (
            <p class="muted">{others.length > 0 ? "Nenhuma outra agência vende esta cabine." : "Só esta agência vende este voo."}</p>
          )}
        </div>
      ) : null}
      {comparison && others.length > 0 ? (
        <details class="offer__compare">
          <summary>Comparar {others.length + 1} ofertas</summary>
          <ComparisonTable offer={offer} />
        </details>
      ) : null}
      <JsonBlock label="JSON desta oferta" value={offer} />
    </article>
  );
};
