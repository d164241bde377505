/**
 * Loose schemas of the Mode B shape (spec 2.5-2.6), which single-airline answers share: a result item with
 * `Ida` and `Volta` offers, each with its `Voos` (legs) and, in OTA comparisons, `Outros` (other sellers).
 * Real answers send `Cia: null` with `CiaParceira` filled, `Duracao: 0`, `TempoTotalStr` as `01h 05m` or
 * `01: 05`, and many members this reader ignores.
 */
import * as z from "zod";
import { airportCode, lenientNumber, lenientText, localDateTime } from "./lenient-primitives.js";

/** The airline object of an offer (`Cia`, `CiaParceira`); only its id, name and IATA code are read. */
export const upstreamCiaSchema = z.looseObject({
  Id: lenientNumber.nullish().catch(undefined),
  Nome: lenientText.nullish().catch(undefined),
  Iata: lenientText.nullish().catch(undefined),
});

/** One leg of an offer (`Voos[]`): `Numero` like `G3-2053`. */
export const upstreamVooSchema = z.looseObject({
  Numero: lenientText,
  Saida: localDateTime,
  Chegada: localDateTime,
  Origem: airportCode,
  Destino: airportCode,
  Duracao: lenientNumber.nullish().catch(undefined),
  Tempo: lenientText.nullish().catch(undefined),
  ClasseStr: lenientText.nullish().catch(undefined),
});

/** A leg after {@link upstreamVooSchema}. */
export type UpstreamVoo = z.infer<typeof upstreamVooSchema>;

/** Another seller's price for the same flight (`Outros[]`). */
export const upstreamOutroSchema = z.looseObject({
  Nome: lenientText.nullish().catch(undefined),
  Site: lenientText.nullish().catch(undefined),
  Url: lenientText.nullish().catch(undefined),
  Valor: lenientNumber.pipe(z.number().nonnegative()),
  Cabine: lenientText.nullish().catch(undefined),
  OpcaoReserva: lenientText.nullish().catch(undefined),
});

/** An alternative offer after {@link upstreamOutroSchema}. */
export type UpstreamOutro = z.infer<typeof upstreamOutroSchema>;

const optionalNumber = lenientNumber.nullish().catch(undefined);

/** Fees of an offer (`Taxas`): per adult (`Embarque`, `Servico`) and per child (`EmbarqueChd`, `ServicoChd`). */
export const upstreamTaxasSchema = z.looseObject({
  Embarque: optionalNumber,
  EmbarqueChd: optionalNumber,
  Servico: optionalNumber,
  ServicoChd: optionalNumber,
});

/** Fees after {@link upstreamTaxasSchema}. */
export type UpstreamTaxas = z.infer<typeof upstreamTaxasSchema>;

/** One included-baggage line (`BagagensInclusas[]`): `Bagagem` 0 carry-on, 1 checked; `Quantidade` pieces. */
export const upstreamIncludedBagSchema = z.looseObject({
  Bagagem: optionalNumber,
  Quantidade: optionalNumber,
  TextoBagagem: lenientText.nullish().catch(undefined),
});

/** A list of included-baggage lines; unreadable lines are null. */
const includedBags = z.array(upstreamIncludedBagSchema.nullable().catch(null)).nullish().catch(undefined);

/**
 * A fare family of an offer (`Tarifas[]`): `Tipo` names it (`LIGHT`, `PLUS`, `MAX`...), with its price for one
 * adult and one child without taxes, the boarding tax per adult, the cabin and the bags it includes.
 */
export const upstreamTarifaSchema = z.looseObject({
  Tipo: lenientText.nullish().catch(undefined),
  ValorAdulto: optionalNumber,
  ValorCrianca: optionalNumber,
  TaxaEmbarque: optionalNumber,
  Classe: lenientText.nullish().catch(undefined),
  BagagensInclusas: includedBags,
  /** Fare options beyond the first (the same seller's other fares, as Voar writes them): token, total, option, link. */
  Token: lenientText.nullish().catch(undefined),
  ValorTotalComTaxa: optionalNumber,
  OpcaoReserva: lenientText.nullish().catch(undefined),
  Url: lenientText.nullish().catch(undefined),
});

/** A fare family after {@link upstreamTarifaSchema}. */
export type UpstreamTarifa = z.infer<typeof upstreamTarifaSchema>;

/** One Mode B offer (an element of `Ida` or `Volta`). `Outros` stay `unknown`: each is read on its own. */
export const upstreamModeBOfferSchema = z.looseObject({
  Token: lenientText.nullish().catch(undefined),
  IdCia: optionalNumber,
  Cia: upstreamCiaSchema.nullish().catch(undefined),
  CiaParceira: upstreamCiaSchema.nullish().catch(undefined),
  PontosAdulto: optionalNumber,
  PontosCrianca: optionalNumber,
  QntdBagagem: optionalNumber,
  QtdBagagemInclusa: optionalNumber,
  BagagensInclusas: includedBags,
  Tarifas: z.array(upstreamTarifaSchema.nullable().catch(null)).nullish().catch(undefined),
  Taxas: upstreamTaxasSchema.nullish().catch(undefined),
  Voos: z.array(upstreamVooSchema).min(1),
  ValorAdulto: optionalNumber,
  ValorAdultoNaCia: optionalNumber,
  ValorCrianca: optionalNumber,
  ValorBebe: optionalNumber,
  ValorTotal: optionalNumber,
  ValorTotalComTaxa: lenientNumber.pipe(z.number().nonnegative()),
  ValorTxServico: optionalNumber,
  ValorTotalTaxas: optionalNumber,
  Duracao: optionalNumber,
  TempoTotalStr: lenientText.nullish().catch(undefined),
  Site: lenientText.nullish().catch(undefined),
  Nome: lenientText.nullish().catch(undefined),
  UrlPesquisa: lenientText.nullish().catch(undefined),
  Outros: z.array(z.unknown()).nullish().catch(undefined),
});

/** An offer after {@link upstreamModeBOfferSchema}. */
export type UpstreamModeBOffer = z.infer<typeof upstreamModeBOfferSchema>;

/** A Mode B result item: passenger counts and the offers of each direction, read one by one. */
export const upstreamModeBResultSchema = z.looseObject({
  QntdAdulto: optionalNumber,
  QntdCrianca: optionalNumber,
  QntdBebe: optionalNumber,
  Ida: z.array(z.unknown()).nullish(),
  Volta: z.array(z.unknown()).nullish(),
});
