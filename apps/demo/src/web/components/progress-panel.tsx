import type { Envelope } from "@voar/http-adapter/fetch";
import { formatCount, formatPercent } from "../../shared/pt-br-format.js";
import { percentDone } from "../search/progress.js";
import type { RunStatus } from "../search/use-search.js";

type Source = NonNullable<Envelope["Progresso"]>["Fontes"][number];

const STATE: Readonly<Record<Source["Estado"], { readonly icon: string; readonly label: (f: Source) => string }>> = {
  pendente: { icon: "…", label: (f) => (f.Itens > 0 ? `recebendo · ${formatCount(f.Itens)} ${f.Itens === 1 ? "oferta" : "ofertas"} até agora` : "aguardando") },
  concluida: { icon: "✓", label: (f) => `respondeu · ${formatCount(f.Itens)} ${f.Itens === 1 ? "oferta" : "ofertas"}` },
  falhou: { icon: "!", label: () => "falhou" },
};

interface ProgressPanelProps {
  readonly envelope: Envelope | undefined;
  readonly status: RunStatus;
}

/**
 * The progress bar and one chip per source (airline or OTA): answered, pending or failed, with how many
 * offers each has brought. Screen readers hear each source that answers (`aria-live`), not every snapshot.
 */
export const ProgressPanel = ({ envelope, status }: ProgressPanelProps) => {
  const p = envelope?.Progresso;
  const pct = percentDone(envelope);
  const done = p?.FontesConcluidas ?? 0;
  const total = p?.FontesTotal ?? 0;
  const complete = envelope?.Completed === true;
  const summary = !envelope
    ? status === "failed"
      ? "A busca não começou"
      : "Iniciando a busca…"
    : status === "failed"
      ? `Busca interrompida: ${done} de ${total} fontes terminaram`
      : complete
      ? total === 0
        ? "Busca concluída sem fontes: nenhuma atende esta busca"
        : `Busca concluída: ${total} ${total === 1 ? "fonte consultada" : "fontes consultadas"}`
      : `${done} de ${total} fontes responderam`;
  return (
    <section class="card progress" aria-labelledby="andamento-titulo" data-status={complete ? "completa" : status === "failed" ? "falhou" : "andamento"}>
      <div class="progress__head">
        <h2 id="andamento-titulo" class="card__title">
          Andamento
        </h2>
        <span class="progress__summary">
          {summary} · <strong data-testid="progresso-percentual">{formatPercent(pct)}</strong>
        </span>
      </div>
      <div
        class={complete ? "progress__bar is-complete" : "progress__bar"}
        role="progressbar"
        aria-labelledby="andamento-titulo"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={`${formatPercent(pct)}: ${summary}`}
      >
        <div class="progress__fill" style={{ width: `${pct}%` }} />
      </div>
      <ul class="sources" aria-label="Fontes da busca">
        {(p?.Fontes ?? []).map((f) => (
          <li key={f.Nome} class={`source source--${f.Estado}`} data-estado={f.Estado} title={f.Erro}>
            <span class="source__icon" aria-hidden="true">
              {STATE[f.Estado].icon}
            </span>
            <span class="source__name">{f.Nome}</span>
            <span class="source__state">{STATE[f.Estado].label(f)}</span>
          </li>
        ))}
      </ul>
      <p class="sr-only" aria-live="polite">
        {summary}
      </p>
    </section>
  );
};
