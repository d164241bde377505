/** Options and types of the typed client. */
import type { ModeAEnvelope, ModeBEnvelope } from "@voar/core";
import type { FetchLike } from "../transport/http-transport.js";

/** A success answer of the service: Mode A, or Mode B / single airline. */
export type Envelope = ModeAEnvelope | ModeBEnvelope;

/** The search request body (spec 2.1). Keys are case-insensitive on the server; extra keys are passed on. */
export interface SearchRequest {
  readonly Origem: string;
  readonly Destino: string;
  /** `YYYY-MM-DD`, or `+N`: N days from today in São Paulo (the client sends the date). */
  readonly Ida: string;
  /** As `Ida`; absent for one way. */
  readonly Volta?: string | undefined;
  readonly Adultos?: number | undefined;
  readonly Criancas?: number | undefined;
  readonly Bebes?: number | undefined;
  /** -1 or null: all airlines; 1300: all OTAs; an airline id: that airline. */
  readonly Companhia?: number | null | undefined;
  readonly NumeroPagina?: number | undefined;
  readonly QuantidadePorPagina?: number | undefined;
  readonly [extra: string]: unknown;
}

/** How the client follows a search: `sse` the stream, `poll` repeated requests, `auto` the stream when offered. */
export type ClientTransport = "auto" | "sse" | "poll";

/** Options of `createClient`. */
export interface ClientOptions {
  /** Base URL of the API: `https://host/api`. */
  readonly baseUrl: string;
  /** Bearer token (an API key, or one from `POST /Token`). */
  readonly token?: string | undefined;
  /** Default `auto`: the SSE stream, falling back to polling when the server answers it 404 or 405. */
  readonly transport?: ClientTransport | undefined;
  /** The `fetch` to use. Default: the global one. */
  readonly fetch?: FetchLike | undefined;
  /** Wait between polls when the server gives no `Progresso.ProximaConsultaMs`. Default 1 000 ms. */
  readonly pollIntervalMs?: number | undefined;
  /** Requests of one search at most, when polling. Default 400. */
  readonly maxPolls?: number | undefined;
  /** Time of one search at most. Default 200 000 ms. */
  readonly maxDurationMs?: number | undefined;
  /** Check every envelope against core's strict schemas (a `MalformedPayload` error otherwise). Default false. */
  readonly validate?: boolean | undefined;
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** {@link ClientOptions} with defaults filled in. */
export interface ResolvedClientOptions {
  readonly baseUrl: string;
  readonly token: string | undefined;
  readonly transport: ClientTransport;
  readonly fetch: FetchLike;
  readonly pollIntervalMs: number;
  readonly maxPolls: number;
  readonly maxDurationMs: number;
  readonly validate: boolean;
  readonly headers: Readonly<Record<string, string>>;
}

/** Fills in the defaults. */
export const resolveClientOptions = (o: ClientOptions): ResolvedClientOptions => ({
  baseUrl: o.baseUrl.replace(/\/+$/, ""),
  token: o.token,
  transport: o.transport ?? "auto",
  fetch: o.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  pollIntervalMs: o.pollIntervalMs ?? 1_000,
  maxPolls: o.maxPolls ?? 400,
  maxDurationMs: o.maxDurationMs ?? 200_000,
  validate: o.validate ?? false,
  headers: o.headers ?? {},
});
