import type { AirportDirectory } from "../domain/airport.js";
import type { SearchSnapshot } from "../engine/snapshot.js";
import { hasResults } from "../engine/snapshot.js";
import { failedSearchAnswer, type ErrorStatus } from "../errors/error-catalogue.js";
import { errorEnvelope, successEnvelope, type ErrorEnvelope, type SuccessEnvelope } from "./envelope.js";
import { toWireModeAGroup } from "./mode-a.js";
import type { ModeAResultGroup } from "./mode-a-schema.js";
import { toWireComparison, toWireModeBResult, toWireSingleAirlineOffer } from "./mode-b.js";
import type { ModeBOffer, ModeBSearchResult } from "./mode-b-schema.js";
import type { Offer } from "../domain/offer.js";
import { toWireProgress } from "./progress.js";
import { modeAPage } from "../views/mode-a-page.js";
import type { ResultView } from "../query/result-view.js";
import { modeBResult, singleAirlineResult } from "../views/mode-b-result.js";

/** Options of {@link snapshotToEnvelope}. */
export interface EnvelopeOptions {
  /** The search id written as `Token` (and `LeaseId` while running), or null. */
  readonly searchId: string | null;
  /** Id of this request (`RequestId`). */
  readonly requestId: string;
  /** Mode A page, from 1. */
  readonly page: number;
  /**
   * Mode A page size, 1..100; or `"all"`: every price group in one answer (page 1, `pagination.pageSize`
   * the number of groups), as the legacy API answered clients that ask no page.
   */
  readonly pageSize: number | "all";
  readonly airports: AirportDirectory;
  /** Hint for the next poll while the search runs (`Progresso.ProximaConsultaMs`). Default 500 ms. */
  readonly nextPollMs?: number | undefined;
  /** Mode A filters and order (`Filtros`, `Ordenacao`); default no filter, cheapest first. */
  readonly view?: ResultView | undefined;
}

/** A success answer: status 200 and the envelope of the query's mode. */
export interface SearchSuccess {
  readonly status: 200;
  readonly body: SuccessEnvelope<ModeAResultGroup> | SuccessEnvelope<ModeBSearchResult>;
}

/** A whole-search failure: every source failed, or the deadline passed with nothing. */
export interface SearchFailure {
  readonly status: ErrorStatus;
  readonly body: ErrorEnvelope;
}

/**
 * Writes a snapshot as the answer the spec describes, for the page asked. A search in which some sources
 * failed but others answered is a success with the failures in `Progresso`; only a completed search in
 * which every source failed and nothing was found is an error (`FALHA_FORNECEDOR`, `TEMPO_ESGOTADO` or
 * `SEM_PERMISSAO`), whose `Retentavel` follows its sources (`failedSearchAnswer`).
 *
 * @example
 * const { status, body } = snapshotToEnvelope(snapshot, { searchId, requestId, page: 1, pageSize: 10, airports });
 */
export const snapshotToEnvelope = (s: SearchSnapshot, opts: EnvelopeOptions): SearchSuccess | SearchFailure => {
  const progress = toWireProgress(s.version, s.sources, s.completed ? 0 : (opts.nextPollMs ?? 500));
  const common = { token: opts.searchId, completed: s.completed, requestId: opts.requestId, progress };
  if (s.completed && !hasResults(s) && s.sources.length > 0 && s.sources.every((p) => p.state === "failed")) {
    const failure = failedSearchAnswer(s.sources);
    return errorEnvelope(failure.codigo, {
      requestId: opts.requestId,
      progresso: progress,
      token: opts.searchId,
      retentavel: failure.retentavel,
      mensagem: failure.mensagem,
    });
  }
  const modeBAnswer = (outbound: ModeBOffer[], inbound: ModeBOffer[]): SearchSuccess => {
    const data = toWireModeBResult({ searchToken: opts.searchId, passengers: s.query.passengers, outbound, inbound });
    return { status: 200, body: successEnvelope({ ...common, data: [data], totalItems: outbound.length + inbound.length }) };
  };
  switch (s.query.mode.kind) {
    case "all-airlines": {
      const page = modeAPage(s, opts.page, opts.pageSize, opts.airports, opts.view);
      return {
        status: 200,
        body: successEnvelope({
          ...common,
          data: [toWireModeAGroup(page.flights, page.meta, page.view)],
          totalItems: page.pagination.totalItems,
          pagination: page.pagination,
        }),
      };
    }
    case "ota-comparison": {
      const r = modeBResult(s);
      return modeBAnswer(r.outbound.map(toWireComparison), r.inbound.map(toWireComparison));
    }
    case "single-airline": {
      const r = singleAirlineResult(s);
      const toWire = (o: Offer) => toWireSingleAirlineOffer(o, s.query.passengers);
      return modeBAnswer(r.outbound.map(toWire), r.inbound.map(toWire));
    }
  }
};
