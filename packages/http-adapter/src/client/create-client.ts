/**
 * The typed client of any service speaking this API (ours included): a search as an Observable of wire
 * envelopes, a Promise of the final one, or an async iterator. It follows our SSE stream when the server
 * offers it and polls otherwise. Web-standard APIs only: Node, Deno, Bun, workerd and browsers.
 */
import { HttpStatusError, isSourceError, MalformedPayload, withAbsoluteDates, type CalendarEnvelope } from "@voar/core";
import type { Observable } from "rxjs";
import { abortableObservable } from "./abortable-observable.js";
import { alertsClient, type AlertsClient } from "./alerts-client.js";
import { resolveClientOptions, type CalendarRequest, type ClientOptions, type Envelope, type ResolvedClientOptions, type SearchRequest } from "./client-options.js";
import { pollEnvelopes } from "./poll-envelopes.js";
import { CALENDAR_ROUTE, SEARCH_ROUTE, type ProgressiveRoute } from "./progressive-route.js";
import { openStream } from "./sse-envelopes.js";

/** A client of the service (its price watches too: `watch`, `watches`, `alerts$`, the webhook secret). */
export interface VoarClient extends AlertsClient {
  /** The envelope of every snapshot of a search; completes after the one with `Completed: true`. Unsubscribing aborts the request in flight. */
  search$(request: SearchRequest): Observable<Envelope>;
  /** The same, as an async iterator; `signal` aborts it. */
  search(request: SearchRequest, options?: { readonly signal?: AbortSignal | undefined }): AsyncGenerator<Envelope>;
  /** The final envelope (`Completed: true`). */
  searchAll(request: SearchRequest, options?: { readonly signal?: AbortSignal | undefined }): Promise<Envelope>;
  /**
   * A price calendar (`POST /ConsultaAereo/Calendario`): the envelope of every snapshot, days filling in as
   * their searches answer; completes after the one with `Completed: true`. Unsubscribing aborts the request in flight.
   */
  calendar$(request: CalendarRequest): Observable<CalendarEnvelope>;
  /** The same, as an async iterator; `signal` aborts it. */
  calendar(request: CalendarRequest, options?: { readonly signal?: AbortSignal | undefined }): AsyncGenerator<CalendarEnvelope>;
  /** The final calendar (`Completed: true`). */
  calendarAll(request: CalendarRequest, options?: { readonly signal?: AbortSignal | undefined }): Promise<CalendarEnvelope>;
}

const pagingOf = (request: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(request).filter(([k]) => /^(numeropagina|quantidadeporpagina)$/i.test(k)));

/** What the client reads of any progressive envelope to follow it. */
type Progressive = { readonly Completed: boolean; readonly Token: string | null; readonly Progresso?: { readonly ProximaConsultaMs: number } | undefined };

async function* envelopes<E extends Progressive>(o: ResolvedClientOptions, asked: Readonly<Record<string, unknown>>, signal: AbortSignal, route: ProgressiveRoute): AsyncGenerator<E> {
  // `Ida: "+30"`: 30 days from today in São Paulo, written as the date once, when the search starts (a search
  // restarted after BUSCA_EXPIRADA asks the same dates).
  const request = withAbsoluteDates(asked);
  if (o.transport !== "poll") {
    const opened = await openStream<E>(o, request, signal, route);
    if (opened.kind === "stream") {
      let last: E | undefined;
      try {
        for await (const envelope of opened.envelopes) {
          last = envelope;
          yield envelope;
        }
        return;
      } catch (error) {
        // A stream that broke mid-search goes on by polling, when the server named the search.
        const broke = isSourceError(error) && (error._tag === "TransportError" || error._tag === "SourceTimeout");
        if (!(o.transport === "auto" && broke && last?.Token && !signal.aborted)) throw error;
        yield* pollEnvelopes<E>(o, { Token: last.Token, ...pagingOf(request) }, signal, route);
        return;
      }
    }
    if (o.transport === "sse") throw new HttpStatusError({ status: opened.status });
  }
  yield* pollEnvelopes<E>(o, request, signal, route);
}

/** The last of a progressive answer's envelopes. */
const lastOf = async <E>(all: AsyncGenerator<E>, what: string): Promise<E> => {
  let last: E | undefined;
  for await (const envelope of all) last = envelope;
  if (!last) throw new MalformedPayload({ detail: `${what} terminou sem nenhuma resposta` });
  return last;
};

/**
 * Creates a client.
 *
 * @example
 * const client = createClient({ baseUrl: "https://voar.example/api", token: "demo-key-0123456789" });
 * client.search$({ Origem: "CNF", Destino: "SDU", Ida: "+30" }).subscribe((e) => console.log(e.TotalItens, e.Completed));
 * const final = await client.searchAll({ Origem: "CNF", Destino: "SDU", Ida: "+30", Volta: "+37", Companhia: 1300 });
 * for await (const envelope of client.search({ Origem: "CNF", Destino: "GIG", Ida: "+45" })) render(envelope);
 * const days = await client.calendarAll({ Origem: "GRU", Destino: "SSA", Ida: "+30", DiasFlexiveis: 3 });
 * const alerta = await client.watch({ Origem: "GRU", Destino: "SSA", Ida: new Date(Date.now() + 40 * 864e5).toISOString().slice(0, 10), DiasFlexiveis: 3, TetoValor: 450, Webhook: "https://agencia.example/voar" });
 * client.alerts$().subscribe(({ event }) => console.log(event.data.Dia, event.data.Valor?.Atual));
 */
export const createClient = (options: ClientOptions): VoarClient => {
  const o = resolveClientOptions(options);
  const search = (request: SearchRequest, opts: { readonly signal?: AbortSignal | undefined } = {}) =>
    envelopes<Envelope>(o, request, opts.signal ?? new AbortController().signal, SEARCH_ROUTE);
  const calendar = (request: CalendarRequest, opts: { readonly signal?: AbortSignal | undefined } = {}) =>
    envelopes<CalendarEnvelope>(o, request, opts.signal ?? new AbortController().signal, CALENDAR_ROUTE);
  return {
    ...alertsClient(o),
    search$: (request) => abortableObservable((signal) => envelopes<Envelope>(o, request, signal, SEARCH_ROUTE)),
    search,
    searchAll: (request, opts = {}) => lastOf(search(request, opts), "a busca"),
    calendar$: (request) => abortableObservable((signal) => envelopes<CalendarEnvelope>(o, request, signal, CALENDAR_ROUTE)),
    calendar,
    calendarAll: (request, opts = {}) => lastOf(calendar(request, opts), "o calendário"),
  };
};
