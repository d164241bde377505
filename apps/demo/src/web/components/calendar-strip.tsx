import type { WireCalendarDay } from "@voar/core";
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
 * calendar). A day whose prices expired shows none, never an old one. The day asked is marked; the day on
 * screen is pressed. A click opens that day's results.
 */
export const CalendarStrip = ({ calendar, selected, onOpen }: CalendarStripProps) => {
  const days = calendar.envelope?.Data ?? [];
  const cash = priceLevels(days.map((d) => d.MenorValor));
  const miles = priceLevels(days.map((d) => d.MenorPontos));
  const done = calendar.envelope?.Progresso.DiasConcluidos ?? 0;
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
      <ol class="calendar__days">
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
