import Table from "cli-table3";
import type { CalendarEnvelope, WireCalendarDay } from "@voar/core";
import { formatBrl, formatDay, formatPoints } from "../shared/pt-br-format.js";
import type { Colors } from "./colors.js";
import type { TableStyle } from "./result-table.js";

const cheapestOf = (days: readonly WireCalendarDay[], price: (d: WireCalendarDay) => number | null): string | undefined => {
  let best: WireCalendarDay | undefined;
  for (const d of days) {
    const p = price(d);
    if (p !== null && (best === undefined || p < price(best)!)) best = d;
  }
  return best?.Data;
};

/** Why a day has no price, in a few words. */
const unpriced = (d: WireCalendarDay): string => {
  if (!d.Completed) return "buscando…";
  if (d.Erro) return d.Erro;
  const failed = d.Fontes.filter((f) => f.Estado === "falhou");
  return failed.length > 0 && failed.length === d.Fontes.length ? (failed[0]?.Erro ?? "falhou") : "sem voos";
};

/**
 * The calendar as a table: one row per day in date order, the cheapest cash fare and the fewest miles with
 * their taxes, the airline of each; the day asked marked `pedido`, the cheapest day of each kind `★`.
 */
export const calendarTable = (e: CalendarEnvelope, style: TableStyle): string => {
  const roundTrip = e.Data.some((d) => d.Volta !== undefined);
  const table = new Table({
    head: ["Ida", ...(roundTrip ? ["Volta"] : []), "", "Menor valor", "Cia", "Menos milhas", "Taxas", "Programa"],
    style: style.color ? { head: ["cyan"], border: ["grey"] } : { head: [], border: [] },
  });
  const cash = cheapestOf(e.Data, (d) => d.MenorValor);
  const miles = cheapestOf(e.Data, (d) => d.MenorPontos);
  for (const d of e.Data) {
    table.push([
      formatDay(d.Data),
      ...(roundTrip ? [d.Volta ? formatDay(d.Volta) : "-"] : []),
      d.DiaPedido ? "pedido" : "",
      d.MenorValor !== null ? `${formatBrl(d.MenorValor)}${d.Data === cash ? " ★" : ""}` : unpriced(d),
      d.CiaMenorValor?.Nome ?? "-",
      d.MenorPontos !== null ? `${formatPoints(d.MenorPontos)}${d.Data === miles ? " ★" : ""}` : d.MenorValor !== null ? "-" : "",
      d.TaxasMenorPontos !== null ? formatBrl(d.TaxasMenorPontos) : "-",
      d.ProgramaMenorPontos ?? "-",
    ]);
  }
  return `${table.toString()}\nValores e milhas para todos os passageiros pedidos; ★ marca o dia mais barato.`;
};

/** One line of progress: the days done so far, and the cheapest found. */
export const calendarProgressLine = (e: CalendarEnvelope, pc: Colors): string => {
  const priced = e.Data.filter((d) => d.MenorValor !== null).map((d) => d.MenorValor!);
  const best = priced.length > 0 ? `, menor até agora ${formatBrl(Math.min(...priced))}` : "";
  return `${pc.cyan("Calendário")}: ${e.Progresso.DiasConcluidos} de ${e.Progresso.DiasTotal} dias${best}`;
};
