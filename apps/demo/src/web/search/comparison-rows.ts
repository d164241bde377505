import type { ModeBOffer } from "@voar/core";
import { formatCabin } from "../../shared/pt-br-format.js";

/** A row of the comparison: the best offer or one of `Outros`. */
export interface ComparisonRow {
  readonly nome: string;
  readonly site: string;
  readonly valor: number;
  readonly cabine: string;
  readonly opcao: string;
  readonly url: string;
  /** The flight's best offer (the first row). */
  readonly best: boolean;
  /** The cheapest offer of its cabin: what the other rows of the cabin are compared with. */
  readonly cabinCheapest: boolean;
  /** What it costs more than the cheapest of its cabin (reais); 0 for that one. */
  readonly difference: number;
}

/** Cabins compared by their names, whatever the accents and case each seller writes them with. */
const cabinKey = (cabin: string): string => formatCabin(cabin).normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();

/**
 * The best offer first, then the other OTAs' offers of the same cabin from cheapest to dearest, then each other
 * cabin's offers (Executiva after Econômica...), cheapest first. A difference is taken within a cabin only: an
 * Executiva fare is another product, not an Econômica fare 400 % dearer. A comparison always names its best
 * offer's seller.
 */
export const comparisonRows = (offer: ModeBOffer): readonly ComparisonRow[] => {
  const bestCabin = offer.Voos[0]?.ClasseStr ? formatCabin(offer.Voos[0].ClasseStr) : "—";
  const rows = [
    { nome: offer.Nome ?? "", site: offer.Site ?? "", valor: offer.ValorTotalComTaxa, cabine: bestCabin, opcao: "Melhor oferta", url: offer.UrlPesquisa ?? "", best: true },
    ...[...(offer.Outros ?? [])]
      .sort((a, b) => a.Valor - b.Valor)
      .map((o) => ({ nome: o.Nome, site: o.Site, valor: o.Valor, cabine: formatCabin(o.Cabine), opcao: o.OpcaoReserva, url: o.Url, best: false })),
  ];
  const cabins = [...new Set(rows.map((r) => cabinKey(r.cabine)))];
  return cabins.flatMap((cabin) => {
    const of = rows.filter((r) => cabinKey(r.cabine) === cabin);
    const cheapest = Math.min(...of.map((r) => r.valor));
    return of.map((r, i) => ({ ...r, cabinCheapest: i === 0, difference: Math.round((r.valor - cheapest) * 100) / 100 }));
  });
};

/** The cheapest other offer in the best offer's cabin: what "Economize ... frente à próxima agência" is against. */
export const nextInCabin = (offer: ModeBOffer): ComparisonRow | undefined => {
  const [best, ...others] = comparisonRows(offer);
  return others.find((r) => best !== undefined && cabinKey(r.cabine) === cabinKey(best.cabine));
};
