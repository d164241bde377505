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
  readonly best: boolean;
}

/** The best offer first, then the other OTAs' offers from cheapest to dearest. A comparison always names its best offer's seller. */
export const comparisonRows = (offer: ModeBOffer): readonly ComparisonRow[] => [
  {
    nome: offer.Nome ?? "",
    site: offer.Site ?? "",
    valor: offer.ValorTotalComTaxa,
    cabine: offer.Voos[0]?.ClasseStr ? formatCabin(offer.Voos[0].ClasseStr) : "—",
    opcao: "Melhor oferta",
    url: offer.UrlPesquisa ?? "",
    best: true,
  },
  ...[...(offer.Outros ?? [])]
    .sort((a, b) => a.Valor - b.Valor)
    .map((o) => ({ nome: o.Nome, site: o.Site, valor: o.Valor, cabine: formatCabin(o.Cabine), opcao: o.OpcaoReserva, url: o.Url, best: false })),
];
