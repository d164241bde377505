import type { AnyEnvelope } from "./local-search.js";

/**
 * Members of a Mode B offer's `Cia` that the spec keeps for the legacy API's shape and that are always empty,
 * null or zero (core's `ModeBAirlineSchema`): the API writes them, `--json` leaves them out.
 */
const AIRLINE_PLACEHOLDERS = [
  "DadosCia",
  "ConfiguracaoBagagem",
  "CupomDescontoRestricao",
  "TaxaEmbarque",
  "Configuracao",
  "LogResultado",
  "LogConsulta",
  "CacheConsulta",
  "ConfigProxy",
  "ProgramaFidelidadeTipo",
  "ApiRequests",
  "FranqueadoPolitica",
  "Ids",
  "_PageNumber",
  "PageNumber",
  "PageSize",
  "OrderBy",
  "OrderDesc",
] as const;

type Offer = { readonly Cia?: Record<string, unknown> | null };

const withoutPlaceholders = (offer: Offer): Offer => {
  if (!offer.Cia) return offer;
  const cia = { ...offer.Cia };
  for (const member of AIRLINE_PLACEHOLDERS) delete cia[member];
  return { ...offer, Cia: cia };
};

/**
 * What `--json` and `--watch` print: the envelope as the API writes it, less the airline placeholders above
 * (18 members per Mode B offer); with `whole` (`--json-completo`), the envelope itself.
 */
export const printedEnvelope = (envelope: AnyEnvelope, whole: boolean): unknown => {
  if (whole || !envelope.Success || "pagination" in envelope) return envelope;
  const data = (envelope.Data as readonly { readonly Ida: readonly Offer[]; readonly Volta: readonly Offer[] }[]).map((r) => ({
    ...r,
    Ida: r.Ida.map(withoutPlaceholders),
    Volta: r.Volta.map(withoutPlaceholders),
  }));
  return { ...envelope, Data: data };
};
