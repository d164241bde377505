/**
 * Rewrites one of our own answers (core's `snapshotToEnvelope`) in the shape the real deployment sends, quirks
 * included (decisions.md, "Semantics the real data shows"): no `Token` nor `RequestId`, `ExceptionErro`, `Info`
 * and friends as null, `ActiveProviders` listing the providers still searching, `TokenConsultaMBX` in Mode A
 * segments (only that name); single-airline answers with `TotalItens: 0`, `Cia: null` beside `CiaParceira`,
 * `Duracao: 0`, and `QntdBagagem`/`QtdBagagemInclusa` 0 whatever `BagagensInclusas` and `Tarifas` list.
 */
import type { SearchFailure, SearchSuccess } from "@voar/core";
import { businessErrorBody } from "./real-shapes.js";

/** What the rewrite needs to know besides the answer. */
export interface RealEnvelopeContext {
  /** Names of the providers still searching. */
  readonly activeProviders: readonly string[];
  readonly mode: "all-airlines" | "ota-comparison" | "single-airline";
  /** Keep `pagination` (when the request asked for a page). */
  readonly paging: boolean;
  /** Keep `Progresso` (with its `ProximaConsultaMs` pacing hint); the real deployment sends none. */
  readonly progressHints: boolean;
}

type Json = Record<string, unknown>;

const isRecord = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u);

const renameSearchToken = (segment: unknown): unknown => {
  if (!isRecord(segment) || !("TokenConsultaSvc" in segment)) return segment;
  const { TokenConsultaSvc, ...rest } = segment;
  return { ...rest, TokenConsultaMBX: TokenConsultaSvc };
};

const modeAFlight = (flight: unknown): unknown => {
  if (!isRecord(flight)) return flight;
  const list = (v: unknown) => (Array.isArray(v) ? v.map(renameSearchToken) : v);
  return { ...flight, segments: list(flight.segments), segmentsBack: list(flight.segmentsBack) };
};

const singleAirlineOffer = (offer: unknown): unknown => {
  if (!isRecord(offer) || !isRecord(offer.Cia)) return offer;
  const { Id, Nome, Iata, Icao, Pais } = offer.Cia;
  return {
    ...offer,
    Cia: null,
    CiaParceira: { Id, Nome, Iata, Icao, Pais },
    Duracao: 0,
    QntdBagagem: 0,
    QtdBagagemInclusa: 0,
    // The airline sells its own offers: real single-airline answers name no seller.
    Site: null,
    Nome: null,
    UrlPesquisa: null,
  };
};

const otaOffer = (offer: unknown): unknown => {
  if (!isRecord(offer) || typeof offer.Duracao !== "number") return offer;
  const m = offer.Duracao;
  const hhmm = `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
  return { ...offer, TempoTotalStr: hhmm };
};

const dataItem = (item: unknown, ctx: RealEnvelopeContext): unknown => {
  if (!isRecord(item)) return item;
  const common = { ActiveProviders: [...ctx.activeProviders], LogErros: [] };
  if (ctx.mode === "all-airlines") {
    return { ...common, ...item, flights: Array.isArray(item.flights) ? item.flights.map(modeAFlight) : item.flights };
  }
  const offer = ctx.mode === "single-airline" ? singleAirlineOffer : otaOffer;
  const list = (v: unknown) => (Array.isArray(v) ? v.map(offer) : v);
  const none = (Array.isArray(item.Ida) ? item.Ida.length : 0) + (Array.isArray(item.Volta) ? item.Volta.length : 0) === 0;
  return { ...common, ...item, Ida: list(item.Ida), Volta: list(item.Volta) ?? [], SemDisponibilidade: none, ErroConsulta: null };
};

/**
 * Rewrites an answer of ours as the real deployment would send it. A whole-search failure becomes the real
 * refusal: HTTP 200 with `Success: false` and .NET exception objects.
 */
export const toRealEnvelope = (answer: SearchSuccess | SearchFailure, ctx: RealEnvelopeContext): { status: number; json: Json } => {
  if (answer.body.Success === false) return { status: 200, json: businessErrorBody(answer.body.MensagemErro) };
  const body = answer.body;
  return {
    status: 200,
    json: {
      RequestId: null,
      Success: true,
      HasResult: body.HasResult,
      ExceptionErro: null,
      MensagemErro: null,
      ExErro: body.ExErro,
      Data: body.Data.map((d) => dataItem(d, ctx)),
      Completed: body.Completed,
      TotalItens: ctx.mode === "single-airline" ? 0 : body.TotalItens,
      Info: null,
      JsonObjectErro: null,
      AuxiliarResponse: null,
      ...(ctx.paging && body.pagination ? { pagination: body.pagination } : {}),
      ...(ctx.progressHints && body.Progresso ? { Progresso: body.Progresso } : {}),
    },
  };
};
