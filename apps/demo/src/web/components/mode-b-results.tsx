import type { ModeBEnvelope, ModeBOffer } from "@voar/core";
import { useState } from "preact/hooks";
import { OfferCard } from "./offer-card.js";

const STEP = 20;

interface OfferListProps {
  readonly title: string;
  readonly offers: readonly ModeBOffer[];
  readonly comparison: boolean;
  readonly infants: number;
}

const OfferList = ({ title, offers, comparison, infants }: OfferListProps) => {
  const [shown, setShown] = useState(STEP);
  return (
    <section class="offers" aria-label={title}>
      <h3 class="offers__title">
        {title} <span class="muted">· {offers.length} voos</span>
      </h3>
      <ol class="flight-list" data-testid="lista-b">
        {offers.slice(0, shown).map((o) => (
          <li key={o.Token ?? `${o.FlightCode}|${o.Saida}`}>
            <OfferCard offer={o} comparison={comparison} infants={infants} />
          </li>
        ))}
      </ol>
      {offers.length > shown ? (
        <button type="button" class="button" onClick={() => setShown(shown + STEP)}>
          Mostrar mais {Math.min(STEP, offers.length - shown)} de {offers.length - shown}
        </button>
      ) : null}
    </section>
  );
};

interface ModeBResultsProps {
  readonly envelope: ModeBEnvelope;
  /** Mode B (OTA comparison) rather than a single airline. */
  readonly comparison: boolean;
}

/** Mode B or a single airline: the flights of the outbound (and return) with their best offer. */
export const ModeBResults = ({ envelope, comparison }: ModeBResultsProps) => {
  const result = envelope.Data[0];
  if (!result || (result.Ida.length === 0 && result.Volta.length === 0)) {
    return <p class="empty">{envelope.Completed ? "Nenhum voo encontrado para esta busca." : "Aguardando as primeiras respostas…"}</p>;
  }
  return (
    <div class="results results--b">
      <p class="toolbar__count" data-testid="total">
        <strong>{envelope.TotalItens}</strong> {comparison ? "voos com ofertas de agências" : "voos"}
      </p>
      <div class={result.Volta.length > 0 ? "offers-grid offers-grid--round" : "offers-grid"}>
        <OfferList title="Ida" offers={result.Ida} comparison={comparison} infants={result.QntdBebe} />
        {result.Volta.length > 0 ? <OfferList title="Volta" offers={result.Volta} comparison={comparison} infants={result.QntdBebe} /> : null}
      </div>
    </div>
  );
};
