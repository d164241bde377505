import Table from "cli-table3";
import type { ModeAEnvelope, ModeBEnvelope, ModeBOffer, ModeAFlight } from "@voar/core";
import { formatBrl, formatCount, formatDuration, formatLocal, formatPercent, formatStops } from "../shared/pt-br-format.js";
import { airlineSaving } from "../shared/airline-saving.js";
import { groupPayment, offerPayment } from "./format.js";

/** Whether the tables color their headers and borders (cli-table3 colors them by default, even on a pipe). */
export interface TableStyle {
  readonly color: boolean;
}

const tableOf = (head: string[], style: TableStyle) =>
  new Table({ head, style: style.color ? { head: ["cyan"], border: ["grey"] } : { head: [], border: [] } });

const legsOf = (s: ModeAFlight["segments"][number]) => `${s.departure} ${formatLocal(s.departureDate)} → ${s.arrival} ${formatLocal(s.arrivalDate)}`;

/**
 * What the offer saves against buying the same seats from the airline, the figure the page shows
 * ({@link airlineSaving}, rounded the same way): `38%`, `0%`, `3% mais cara` when it costs more, `—` when the
 * answer gives no airline price (Livelo's seats).
 */
const saving = (o: ModeBOffer): string => {
  const s = airlineSaving(o);
  if (s === undefined) return "—";
  const rounded = Math.round(s.percent);
  return rounded < 0 ? `${formatPercent(-s.percent)} mais cara` : formatPercent(rounded === 0 ? 0 : s.percent);
};

/** The flight numbers of an offer, one per line (`IB 6783` over `IB 6872`), as the page writes them. */
const flightNumbers = (o: ModeBOffer): string => o.Voos.map((v) => v.Numero.replace("-", " ")).join("\n");

const SAVING_NOTE =
  "Economia: quanto a oferta custa abaixo da própria companhia, com taxas, para os mesmos passageiros (—: a resposta não traz o preço da companhia).";

/** Mode A: one row per price group, with its first itinerary each way and how many alternatives it has. */
export const modeATable = (envelope: ModeAEnvelope, style: TableStyle): string => {
  const group = envelope.Data[0];
  const roundTrip = group?.flights.some((f) => f.segmentsBack && f.segmentsBack.length > 0) ?? false;
  const head = ["#", "Cia", "Preço", roundTrip ? "Milhas (ida + volta)" : "Milhas", "Ida", "Duração", "Paradas", "Opções"];
  const table = tableOf(roundTrip ? [...head, "Volta", "Duração volta", "Paradas volta", "Opções volta"] : head, style);
  const start = (envelope.pagination.currentPage - 1) * envelope.pagination.pageSize;
  group?.flights.forEach((f, i) => {
    const first = f.segments[0]!;
    const row = [
      String(start + i + 1),
      f.validatingBy.name,
      formatBrl(f.fareGroup.priceWithTax),
      groupPayment(f),
      legsOf(first),
      formatDuration(first.duration),
      formatStops(first.numberOfStops),
      String(f.segments.length),
    ];
    const back = f.segmentsBack?.[0];
    const backCells = back ? [legsOf(back), formatDuration(back.duration), formatStops(back.numberOfStops)] : ["-", "-", "-"];
    table.push(roundTrip ? [...row, ...backCells, String(f.segmentsBack?.length ?? 0)] : row);
  });
  const p = envelope.pagination;
  const view = group?.meta.Filtros ? ` (com filtros, de ${formatCount(group.meta.TotalGroups)})` : "";
  const note = roundTrip
    ? "Cada grupo é um preço total de ida e volta de uma companhia; Opções e Opções volta contam as idas e as voltas que se combinam por exatamente esse preço."
    : "Cada grupo é um preço de uma companhia; Opções conta os horários vendidos por exatamente esse preço.";
  return `${table.toString()}\nPágina ${p.currentPage} de ${Math.max(1, p.totalPages)} · ${formatCount(p.totalItems)} grupos de preço${view}\n${note}`;
};

/**
 * The other agencies selling the flight, counted once each however many offers (booking options) each
 * has in `Outros`, with the cheapest of their offers: `2 (próxima R$ 1.091,96)`.
 */
export const otherAgencies = (o: ModeBOffer): string => {
  const others = (o.Outros ?? []).filter((x) => x.Site !== o.Site || x.Nome !== o.Nome);
  if (others.length === 0) return "-";
  const agencies = new Set(others.map((x) => x.Site || x.Nome)).size;
  const cheapest = Math.min(...others.map((x) => x.Valor));
  return `${formatCount(agencies)} (próxima ${formatBrl(cheapest)})`;
};

const offerRows = (offers: readonly ModeBOffer[], title: string, comparison: boolean, style: TableStyle): string => {
  const head = comparison
    ? ["Voo", "Saída → Chegada", "Duração", "Melhor oferta", "Preço", "Outras agências", "Economia"]
    : ["Voo", "Saída → Chegada", "Duração", "Milhas", "Preço", "Economia"];
  const table = tableOf(head, style);
  for (const o of offers) {
    const times = `${o.Origem} ${formatLocal(o.Saida)} → ${o.Destino} ${formatLocal(o.Chegada)}`;
    if (comparison) {
      table.push([flightNumbers(o), times, formatDuration(o.Duracao), o.Nome, formatBrl(o.ValorTotalComTaxa), otherAgencies(o), saving(o)]);
    } else {
      table.push([flightNumbers(o), times, formatDuration(o.Duracao), offerPayment(o.PontosAdulto, o.ValorTotalTaxas), formatBrl(o.ValorTotalComTaxa), saving(o)]);
    }
  }
  return `${title}\n${table.toString()}`;
};

/** Mode B (comparison) or single airline: one row per flight, outbound then return. */
export const modeBTable = (envelope: ModeBEnvelope, comparison: boolean, style: TableStyle): string => {
  const r = envelope.Data[0];
  if (!r) return "Nenhum voo encontrado.";
  const parts = [offerRows(r.Ida, `Ida (${formatCount(r.Ida.length)} voos)`, comparison, style)];
  if (r.Volta.length > 0) parts.push(offerRows(r.Volta, `Volta (${formatCount(r.Volta.length)} voos)`, comparison, style));
  return [...parts, SAVING_NOTE].join("\n");
};
