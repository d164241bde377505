import type { ModeAEnvelope, ModeBEnvelope } from "@voar/core";
import type { Envelope } from "@voar/http-adapter/fetch";
import type { DemoBackend } from "../../shared/demo-config.js";
import type { ModeAFilters, SortKey } from "../search/mode-a-view.js";
import type { SearchRun } from "../search/use-search.js";
import { JsonBlock } from "./json-viewer.js";
import { ModeAResults } from "./mode-a-results.js";
import { ModeBResults } from "./mode-b-results.js";
import { ProgressPanel } from "./progress-panel.js";
import { ErrorBanner, NoSourceBanner, PartialFailureBanner } from "./status-banner.js";

const isModeA = (e: Envelope): e is ModeAEnvelope => e.pagination !== undefined && (e.Data[0] === undefined || "flights" in e.Data[0]);

interface ResultsAreaProps {
  readonly run: SearchRun;
  /** Where the results come from, to say why a search had no source. */
  readonly backend?: DemoBackend | undefined;
  readonly onPage: (page: number) => void;
  readonly onPageSize: (size: number) => void;
  /** The filters and order of the Mode A view asked for. */
  readonly filters: ModeAFilters;
  readonly sort: SortKey;
  readonly onView: (filters: ModeAFilters, sort: SortKey) => void;
}

/** Everything about the search on screen: progress, failures, the results of its mode, and the raw answer. */
export const ResultsArea = ({ run, backend, onPage, onPageSize, filters, sort, onView }: ResultsAreaProps) => {
  const { envelope } = run;
  const companhia = run.request.Companhia ?? -1;
  const failed = run.status === "failed";
  // A search that failed with nothing to show has only its banner; one that failed on a later page keeps its rows.
  const showResults = envelope !== undefined && envelope.Success && !(failed && envelope.TotalItens === 0);
  return (
    <section id="resultados" class="results-area" aria-labelledby="resultados-titulo" data-busca={envelope?.Token ?? ""}>
      <h2 id="resultados-titulo" class="sr-only">
        Resultados
      </h2>
      <ProgressPanel envelope={envelope} status={run.status} />
      {run.error ? <ErrorBanner message={run.error} /> : null}
      {failed ? null : <PartialFailureBanner envelope={envelope} />}
      <NoSourceBanner envelope={envelope} companhia={companhia} backend={backend} />
      {envelope ? (
        <div class="raw-answer">
          <JsonBlock label={`JSON da resposta (envelope da API, versão ${envelope.Progresso?.Versao ?? "?"})`} value={envelope} />
        </div>
      ) : null}
      {envelope && showResults ? (
        companhia === -1 && isModeA(envelope) ? (
          <ModeAResults
            key={run.searchId}
            envelope={envelope}
            filters={filters}
            sort={sort}
            paging={!run.current && run.status === "running"}
            onPage={onPage}
            onPageSize={onPageSize}
            onView={onView}
          />
        ) : (
          <ModeBResults key={run.searchId} envelope={envelope as ModeBEnvelope} comparison={companhia === 1300} />
        )
      ) : null}
    </section>
  );
};

/** What a newcomer sees before the first search. */
export const Intro = () => (
  <section class="card intro" aria-labelledby="intro-titulo">
    <h2 id="intro-titulo" class="card__title">
      Como funciona
    </h2>
    <ol class="intro__steps">
      <li>
        <strong>Busque.</strong> O formulário já vem preenchido: clique em <em>Buscar voos</em>.
      </li>
      <li>
        <strong>Veja chegar.</strong> Cada companhia ou agência responde no seu tempo; a barra mostra quem já respondeu e os voos entram na lista
        sem embaralhar o que você está lendo.
      </li>
      <li>
        <strong>Compare.</strong> Em <em>Comparar agências</em>, cada voo traz a melhor oferta e a tabela das outras. No <em>Operador</em>,
        desligue os voos pagantes de uma companhia e busque de novo.
      </li>
    </ol>
  </section>
);
