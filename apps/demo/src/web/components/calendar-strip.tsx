import type { WireCalendarDay } from "@voar/core";
import { useEffect, useRef } from "preact/hooks";
import { formatBrl, formatDay, formatPoints } from "../../shared/pt-br-format.js";
import { priceLevels } from "../calendar/price-scale.js";
import type { CalendarRun } from "../calendar/use-calendar.js";

interface CalendarStripProps {
  readonly calendar: CalendarRun;
  /** The departure date whose results are on screen. */
  readonly selected: string | undefined;
  /** Opens a day's results. */
  readonly onOpen: (day: WireCalendarDay) => void;
}

const dayLabel = (d: WireCalendarDay): string =>
  [
    formatDay(d.Data),
    d.DiaPedido ? "dia pedido" : "",
    d.MenorValor !== null ? `a partir de ${formatBrl(d.MenorValor)}` : "",
    d.MenorPontos !== null ? `ou ${formatPoints(d.MenorPontos)} milhas mais ${formatBrl(d.TaxasMenorPontos ?? 0)}` : "",
    d.Estado === "expirado" ? "preço expirado, a próxima consulta busca de novo" : d.Completed ? (d.MenorValor === null && d.MenorPontos === null ? "sem preço" : "") : "buscando",
  ]
    .filter((t) => t !== "")
    .join(", ");

/**
 * The price calendar above the results: one button per day, the cheapest cash fare and the fewest miles
 * of each, coloured from cheap (green) to dear (red) by cash (by miles where a day has no cash fare), days
 * filling in as their searches answer (the SDK applies the stream's changes: the page always holds the whole
 * calendar), and a legend saying so. A day whose prices expired shows none, never an old one. The day asked is
 * marked (and scrolled into view where the days scroll sideways); the day on screen is pressed. A click opens that
 * day's results.
 */
export const CalendarStrip = ({ calendar, selected, onOpen }: CalendarStripProps) => {
  const days = calendar.envelope?.Data ?? [];
  const cash = priceLevels(days.map((d) => d.MenorValor));
  const miles = priceLevels(days.map((d) => d.MenorPontos));
  const done = calendar.envelope?.Progresso.DiasConcluidos ?? 0;
  const list = useRef<HTMLOListElement>(null);
  // Once per calendar, when its days first show: the day asked in the middle of the strip, not off its edge.
  useEffect(() => {
    const strip = list.current;
    const asked = strip?.querySelector<HTMLElement>(".calendar__day--asked");
    if (strip && asked) strip.scrollLeft = asked.offsetLeft - strip.offsetLeft - (strip.clientWidth - asked.offsetWidth) / 2;
  }, [calendar.id, days.length > 0]);
  return (
    <section class="card calendar" aria-labelledby="calendario-titulo" data-testid="calendario">
      <div class="calendar__head">
        <h2 id="calendario-titulo" class="card__title">
          Calendário de preços
        </h2>
        <span class="muted" aria-live="polite" data-testid="calendario-andamento">
          {calendar.error ?? (calendar.envelope?.Completed ? `${days.length} dias` : `${done} de ${days.length || "…"} dias`)}
        </span>
      </div>
      <p class="calendar__legend muted" data-testid="calendario-legenda">
        Em cada dia, a passagem mais barata paga em dinheiro (R$, tarifa pagante, com taxas) e a de menos milhas (mi, mais taxas), para
        todos os passageiros; cores do mais barato (verde) ao mais caro (vermelho). Na lista abaixo, um grupo pago com milhas tem como
        preço o valor das milhas mais as taxas: ela pode começar abaixo do R$ do dia.
      </p>
      <ol class="calendar__days" ref={list}>
        {days.map((d, i) => {
          const level = cash[i] ?? miles[i];
          const classes = ["calendar__day", level === null || level === undefined ? "" : `calendar__day--l${level}`, d.DiaPedido ? "calendar__day--asked" : "", d.Completed ? "" : "is-loading"];
          return (
            <li key={d.Data}>
              <button
                type="button"
                class={classes.filter((c) => c !== "").join(" ")}
                aria-pressed={d.Data === selected}
                aria-label={dayLabel(d)}
                data-date={d.Data}
                data-estado={d.Estado}
                onClick={() => onOpen(d)}
              >
                <span class="calendar__date">{formatDay(d.Data)}</span>
                {d.DiaPedido ? <span class="calendar__asked">pedido</span> : null}
                <span class="calendar__cash" data-testid="calendario-valor">
                  {d.MenorValor !== null ? formatBrl(d.MenorValor) : d.Estado === "expirado" ? "expirado" : d.Completed ? "—" : "…"}
                </span>
                <span class="calendar__miles" data-testid="calendario-milhas">
                  {d.MenorPontos !== null ? `${formatPoints(d.MenorPontos)} mi` : d.Completed ? "—" : ""}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
};
