import Table from "cli-table3";
import type { ModeAEnvelope, ModeBEnvelope, ModeBOffer, ModeAFlight } from "@voar/core";
import { formatBrl, formatLocal, formatMiles, formatMinutes, formatStops } from "./format.js";

const legsOf = (s: ModeAFlight["segments"][number]) => `${s.departure} ${formatLocal(s.departureDate)} → ${s.arrival} ${formatLocal(s.arrivalDate)}`;

/** Mode A: one row per price group, with its cheapest-to-read first itinerary and how many alternatives it has. */
export const modeATable = (envelope: ModeAEnvelope): string => {
  const group = envelope.Data[0];
  const roundTrip = group?.flights.some((f) => f.segmentsBack && f.segmentsBack.length > 0) ?? false;
  const head = ["#", "Cia", "Preço", "Milhas", "Ida", "Duração", "Paradas", "Opções"];
  const table = new Table({ head: roundTrip ? [...head, "Volta", "Opções volta"] : head, style: { head: ["cyan"] } });
  const start = (envelope.pagination.currentPage - 1) * envelope.pagination.pageSize;
  group?.flights.forEach((f, i) => {
    const first = f.segments[0]!;
    const taxes = f.fareGroup.priceWithTax - f.fareGroup.priceWithoutTax;
    const row = [
      String(start + i + 1),
      f.validatingBy.name,
      formatBrl(f.fareGroup.priceWithTax),
      formatMiles(first.PontosAdulto, taxes),
      legsOf(first),
      formatMinutes(first.duration),
      formatStops(first.numberOfStops),
      String(f.segments.length),
    ];
    const back = f.segmentsBack?.[0];
    table.push(roundTrip ? [...row, back ? legsOf(back) : "-", String(f.segmentsBack?.length ?? 0)] : row);
  });
  const p = envelope.pagination;
  return `${table.toString()}\nPágina ${p.currentPage} de ${p.totalPages} · ${p.totalItems} grupos de preço`;
};

const offerRows = (offers: readonly ModeBOffer[], title: string, comparison: boolean): string => {
  const head = comparison
    ? ["Voo", "Saída → Chegada", "Duração", "Melhor oferta", "Preço", "Outras OTAs", "Economia"]
    : ["Voo", "Saída → Chegada", "Duração", "Milhas", "Preço", "Economia"];
  const table = new Table({ head, style: { head: ["cyan"] } });
  for (const o of offers) {
    const times = `${o.Origem} ${formatLocal(o.Saida)} → ${o.Destino} ${formatLocal(o.Chegada)}`;
    const saving = o.PercentualEconomia > 0 ? `${o.PercentualEconomia.toFixed(1)}%` : "-";
    if (comparison) {
      const others = o.Outros ?? [];
      const next = others[0];
      table.push([o.FlightCode, times, o.TempoTotalStr, o.Nome, formatBrl(o.ValorTotalComTaxa), next ? `${others.length} (próxima ${formatBrl(next.Valor)})` : "-", saving]);
    } else {
      table.push([o.FlightCode, times, o.TempoTotalStr, formatMiles(o.PontosAdulto, o.ValorTotalTaxas), formatBrl(o.ValorTotalComTaxa), saving]);
    }
  }
  return `${title}\n${table.toString()}`;
};

/** Mode B (comparison) or single airline: one row per flight, outbound then return. */
export const modeBTable = (envelope: ModeBEnvelope, comparison: boolean): string => {
  const r = envelope.Data[0];
  if (!r) return "Nenhum voo encontrado.";
  const parts = [offerRows(r.Ida, `Ida (${r.Ida.length} voos)`, comparison)];
  if (r.Volta.length > 0) parts.push(offerRows(r.Volta, `Volta (${r.Volta.length} voos)`, comparison));
  return parts.join("\n");
};
