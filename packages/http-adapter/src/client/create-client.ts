/**
 * The typed client of any service speaking this API (ours included): a search as an Observable of wire
 * envelopes, a Promise of the final one, or an async iterator. It follows our SSE stream when the server
 * offers it and polls otherwise. Web-standard APIs only: Node, Deno, Bun, workerd and browsers.
 */
import { HttpStatusError, isSourceError, MalformedPayload, withAbsoluteDates } from "@voar/core";
import type { Observable } from "rxjs";
import { abortableObservable } from "./abortable-observable.js";
import { resolveClientOptions, type ClientOptions, type Envelope, type ResolvedClientOptions, type SearchRequest } from "./client-options.js";
import { pollEnvelopes } from "./poll-envelopes.js";
import { openStream } from "./sse-envelopes.js";

/** A client of the service. */
export interface VoarClient {
  /** The envelope of every snapshot of a search; completes after the one with `Completed: true`. Unsubscribing aborts the request in flight. */
  search$(request: SearchRequest): Observable<Envelope>;
  /** The same, as an async iterator; `signal` aborts it. */
  search(request: SearchRequest, options?: { readonly signal?: AbortSignal | undefined }): AsyncGenerator<Envelope>;
  /** The final envelope (`Completed: true`). */
  searchAll(request: SearchRequest, options?: { readonly signal?: AbortSignal | undefined }): Promise<Envelope>;
}

const pagingOf = (request: SearchRequest): Record<string, unknown> =>
  Object.fromEntries(Object.entries(request).filter(([k]) => /^(numeropagina|quantidadeporpagina)$/i.test(k)));

async function* envelopes(o: ResolvedClientOptions, asked: SearchRequest, signal: AbortSignal): AsyncGenerator<Envelope> {
  // `Ida: "+30"`: 30 days from today in São Paulo, written as the date once, when the search starts (a search
  // restarted after BUSCA_EXPIRADA asks the same dates).
  const request = withAbsoluteDates(asked);
  if (o.transport !== "poll") {
    const opened = await openStream(o, request, signal);
    if (opened.kind === "stream") {
      let last: Envelope | undefined;
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
        yield* pollEnvelopes(o, { Token: last.Token, ...pagingOf(request) }, signal);
        return;
      }
    }
    if (o.transport === "sse") throw new HttpStatusError({ status: opened.status });
  }
  yield* pollEnvelopes(o, request, signal);
}

/**
 * Creates a client.
 *
 * @example
 * const client = createClient({ baseUrl: "https://voar.example/api", token: "demo-key-0123456789" });
 * client.search$({ Origem: "CNF", Destino: "SDU", Ida: "+30" }).subscribe((e) => console.log(e.TotalItens, e.Completed));
 * const final = await client.searchAll({ Origem: "CNF", Destino: "SDU", Ida: "+30", Volta: "+37", Companhia: 1300 });
 * for await (const envelope of client.search({ Origem: "CNF", Destino: "GIG", Ida: "+45" })) render(envelope);
 */
export const createClient = (options: ClientOptions): VoarClient => {
  const o = resolveClientOptions(options);
  const search = (request: SearchRequest, opts: { readonly signal?: AbortSignal | undefined } = {}) =>
    envelopes(o, request, opts.signal ?? new AbortController().signal);
  return {
    search$: (request) => abortableObservable((signal) => envelopes(o, request, signal)),
    search,
    async searchAll(request, opts = {}) {
      let last: Envelope | undefined;
      for await (const envelope of search(request, opts)) last = envelope;
      if (!last) throw new MalformedPayload({ detail: "a busca terminou sem nenhuma resposta" });
      return last;
    },
  };
};
