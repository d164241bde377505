import type { WireAlert } from "@voar/core";
import type { VoarClient } from "@voar/http-adapter/fetch";
import { useEffect, useState } from "preact/hooks";
import { describeSearchError } from "../api/voar-client.js";
import type { CalendarRun } from "../calendar/use-calendar.js";
import type { ReceivedAlert } from "../../server/demo-alerts.js";
import type { DemoConfig } from "../../shared/demo-config.js";
import { formatBrl, formatDay } from "../../shared/pt-br-format.js";

interface AlertControlProps {
  readonly calendar: CalendarRun;
  readonly client: VoarClient | undefined;
  readonly config: DemoConfig | undefined;
}

/** The cheapest cash price of the calendar so far (what "me avise" starts its ceiling at). */
const cheapestOf = (calendar: CalendarRun): number | undefined => {
  const prices = (calendar.envelope?.Data ?? []).flatMap((d) => (d.MenorValor === null ? [] : [d.MenorValor]));
  return prices.length > 0 ? Math.min(...prices) : undefined;
};

/**
 * "Me avise" on the price calendar: a price watch of the calendar's days (`client.watch`) with a ceiling (the
 * cheapest price so far, so the simulator's prices, which do not move, show an alert at the first check), its
 * alerts posted to the demo's own webhook receiver; below it, what the receiver got (signature checked), newest first.
 */
export const AlertControl = ({ calendar, client, config }: AlertControlProps) => {
  const [ceiling, setCeiling] = useState<string>("");
  const [watch, setWatch] = useState<WireAlert | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [received, setReceived] = useState<readonly ReceivedAlert[]>([]);
  const cheapest = cheapestOf(calendar);
  useEffect(() => setCeiling(cheapest === undefined ? "" : cheapest.toFixed(2)), [calendar.id, cheapest === undefined]);
  useEffect(() => {
    if (!watch || !config?.alertDeliveriesPath) return;
    const path = config.alertDeliveriesPath;
    const read = () => void fetch(path).then(async (r) => setReceived((await r.json()) as ReceivedAlert[])).catch(() => undefined);
    read();
    const timer = setInterval(read, 2_000);
    return () => clearInterval(timer);
  }, [watch, config?.alertDeliveriesPath]);
  if (!client || !config?.alertWebhookPath) return null;
  // The calendar's request as the page built it (its members, typed loosely by the SDK's index signature).
  const request = calendar.request as unknown as { Origem: string; Destino: string; Ida: string; DiasFlexiveis: number; Adultos?: number; Criancas?: number; Bebes?: number };
  const create = async () => {
    setError(undefined);
    try {
      const value = Number(ceiling.replace(",", "."));
      setWatch(
        await client.watch({
          Origem: request.Origem,
          Destino: request.Destino,
          Ida: request.Ida,
          DiasFlexiveis: request.DiasFlexiveis,
          Adultos: request.Adultos,
          Criancas: request.Criancas,
          Bebes: request.Bebes,
          Tipo: "dinheiro",
          ...(Number.isFinite(value) && value > 0 ? { TetoValor: Math.round(value * 100) / 100 } : {}),
          Webhook: new URL(config.alertWebhookPath!, window.location.origin).href,
          Referencia: "demonstração",
        }),
      );
    } catch (e) {
      setError(describeSearchError(e));
    }
  };
  return (
    <section class="card alert-control" aria-labelledby="alerta-titulo" data-testid="me-avise">
      <div class="calendar__head">
        <h2 id="alerta-titulo" class="card__title">
          Me avise quando baixar
        </h2>
        {watch ? <span class="muted">alerta {watch.Id}</span> : null}
      </div>
      <form
        class="alert-control__form"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <label>
          Avisar quando a menor tarifa destes dias ficar igual ou abaixo de R${" "}
          <input inputMode="decimal" value={ceiling} onInput={(e) => setCeiling((e.target as HTMLInputElement).value)} placeholder="qualquer nova mínima" aria-label="Teto em reais" />
        </label>
        <button type="submit" class="button">
          Me avise
        </button>
      </form>
      {error ? <p class="banner banner--error">{error}</p> : null}
      {watch ? (
        <div aria-live="polite">
          <p class="muted">
            Os avisos chegam ao receptor local da demonstração ({config.alertWebhookPath}), assinados (Standard Webhooks); cada dia é verificado no horário do serviço.
          </p>
          <ol class="alert-control__received" data-testid="avisos-recebidos">
            {received.length === 0 ? <li class="muted">Nenhum aviso ainda.</li> : null}
            {received.map((r) => (
              <li key={`${r.receivedAt}-${r.event?.data.Id ?? "x"}`}>
                {r.event ? (
                  <>
                    {formatDay(r.event.data.Dia)}: {r.event.data.Valor ? formatBrl(r.event.data.Valor.Atual) : "—"} {r.verified ? "✓ assinatura conferida" : ""}
                    {r.repeated ? " (repetido)" : ""}
                  </>
                ) : (
                  <>assinatura recusada: {r.error}</>
                )}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </section>
  );
};
