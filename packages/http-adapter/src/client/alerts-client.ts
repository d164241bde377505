/**
 * The price watches of the typed client: create one (`watch`), list, read and cancel them, read a watch's
 * deliveries, the webhook secret (and rotate it), and follow the tenant's alerts as they come (`alerts$`, the
 * service's SSE stream, resumed after a dropped connection from the last alert received). Web-standard APIs only.
 */
import { MalformedPayload, type AlertEnvelope, type AlertEvent, type DeliveryEnvelope, type WebhookSecretEnvelope, type WireAlert, type WireDelivery } from "@voar/core";
import { Observable } from "rxjs";
import { transportFailure } from "../transport/transport-failure.js";
import type { ResolvedClientOptions } from "./client-options.js";
import { answerError, parseJson } from "./envelope-reader.js";
import { requestHeaders } from "./post-json.js";
import { eventsOf } from "./sse-envelopes.js";

/** The body of a new price watch (`POST /Alertas`). Dates as `YYYY-MM-DD`; keys are case-insensitive on the server. */
export interface WatchRequest {
  readonly Origem: string;
  readonly Destino: string;
  /** The day watched (with `DiasFlexiveis`, the middle of the window); or `Mes` instead. */
  readonly Ida?: string | undefined;
  /** Days before and after `Ida` watched too, 0 to 7. */
  readonly DiasFlexiveis?: number | undefined;
  /** A whole month (`YYYY-MM`) instead of `Ida`. */
  readonly Mes?: string | undefined;
  readonly Adultos?: number | undefined;
  readonly Criancas?: number | undefined;
  readonly Bebes?: number | undefined;
  /** -1 or null: every airline; an airline id: that airline. */
  readonly Companhia?: number | null | undefined;
  readonly Cabine?: "economica" | "premium" | "executiva" | "primeira" | null | undefined;
  /** Default `ambos`. */
  readonly Tipo?: "dinheiro" | "milhas" | "ambos" | undefined;
  /** Alert at or below this many reais (every passenger, taxes included); absent: at any new low. */
  readonly TetoValor?: number | null | undefined;
  /** Alert at or below this many points; absent: at any new low. */
  readonly TetoPontos?: number | null | undefined;
  /** The watch's last day (`YYYY-MM-DD`); default its last day watched. */
  readonly ExpiraEm?: string | undefined;
  /** Where each alert is posted (signed, Standard Webhooks); absent: the stream and the list only. */
  readonly Webhook?: string | null | undefined;
  /** Your own id of the traveller or request, echoed in every alert. */
  readonly Referencia?: string | null | undefined;
}

/** The secret that signs the tenant's webhooks, and the previous one while it still signs. */
export interface WebhookSecret {
  readonly Segredo: string;
  readonly Anterior: string | null;
  readonly AnteriorValidoAte: string | null;
}

/** The price watches of a client. */
export interface AlertsClient {
  /** Creates a price watch; resolves with it as the service stored it. */
  watch(request: WatchRequest, options?: { readonly signal?: AbortSignal | undefined }): Promise<WireAlert>;
  readonly watches: {
    /** The tenant's watches, oldest first. */
    list(options?: { readonly signal?: AbortSignal | undefined }): Promise<readonly WireAlert[]>;
    get(id: string, options?: { readonly signal?: AbortSignal | undefined }): Promise<WireAlert>;
    /** Deletes a watch; resolves with it as it was. */
    cancel(id: string, options?: { readonly signal?: AbortSignal | undefined }): Promise<WireAlert>;
    /** A watch's deliveries to its webhook, newest first. */
    deliveries(id: string, options?: { readonly signal?: AbortSignal | undefined }): Promise<readonly WireDelivery[]>;
  };
  /** The webhook secret (created on first use). */
  webhookSecret(options?: { readonly signal?: AbortSignal | undefined }): Promise<WebhookSecret>;
  /** Replaces the webhook secret; the previous one still signs for a while (24 h by default). */
  rotateWebhookSecret(options?: { readonly signal?: AbortSignal | undefined }): Promise<WebhookSecret>;
  /**
   * The tenant's alerts as they come (the service's `GET /Alertas/Stream`), each with its sequence number; after a
   * dropped connection it reconnects, asking for the alerts after the last one received. `after`: replay the kept
   * alerts after this sequence number (0: all kept). Never completes; unsubscribing closes the stream.
   */
  alerts$(options?: { readonly after?: number | undefined }): Observable<{ readonly seq: number; readonly event: AlertEvent }>;
}

type Data<E> = E extends { readonly Data: readonly (infer D)[] } ? D : never;

/** One request to `/Alertas...`, its envelope's items, or its tagged error. */
const call = async <E extends { readonly Data: readonly unknown[] }>(o: ResolvedClientOptions, method: "GET" | "POST" | "DELETE", path: string, body: unknown, signal: AbortSignal): Promise<readonly Data<E>[]> => {
  let status: number;
  let text: string;
  let retryAfter: string | undefined;
  try {
    const res = await o.fetch(`${o.baseUrl}/Alertas${path}`, { method, headers: requestHeaders(o, "application/json"), ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal });
    status = res.status;
    retryAfter = res.headers.get("retry-after") ?? undefined;
    text = await res.text();
  } catch (error) {
    throw transportFailure(error, signal, `${method} /Alertas${path}`);
  }
  const json = parseJson(text, "a resposta");
  if (status < 200 || status >= 300) throw answerError(status, json, retryAfter);
  const data = (json as { Data?: unknown }).Data;
  if (!Array.isArray(data)) throw new MalformedPayload({ detail: "a resposta não é um envelope de alertas" });
  return data as Data<E>[];
};

const first = <T>(items: readonly T[]): T => {
  if (items[0] === undefined) throw new MalformedPayload({ detail: "a resposta não trouxe o alerta" });
  return items[0];
};

const signalOf = (options: { readonly signal?: AbortSignal | undefined } | undefined) => options?.signal ?? new AbortController().signal;

/** The price watches of a client on its resolved options. */
export const alertsClient = (o: ResolvedClientOptions): AlertsClient => {
  const id = (value: string) => `/${encodeURIComponent(value)}`;
  return {
    watch: async (request, options) => first(await call<AlertEnvelope>(o, "POST", "", request, signalOf(options))),
    watches: {
      list: (options) => call<AlertEnvelope>(o, "GET", "", undefined, signalOf(options)),
      get: async (watchId, options) => first(await call<AlertEnvelope>(o, "GET", id(watchId), undefined, signalOf(options))),
      cancel: async (watchId, options) => first(await call<AlertEnvelope>(o, "DELETE", id(watchId), undefined, signalOf(options))),
      deliveries: (watchId, options) => call<DeliveryEnvelope>(o, "GET", `${id(watchId)}/Entregas`, undefined, signalOf(options)),
    },
    webhookSecret: async (options) => first(await call<WebhookSecretEnvelope>(o, "GET", "/Segredo", undefined, signalOf(options))),
    rotateWebhookSecret: async (options) => first(await call<WebhookSecretEnvelope>(o, "POST", "/Segredo", undefined, signalOf(options))),
    alerts$: (options = {}) =>
      new Observable((subscriber) => {
        const abort = new AbortController();
        let last = options.after ?? 0;
        void (async () => {
          while (!abort.signal.aborted) {
            try {
              const res = await o.fetch(`${o.baseUrl}/Alertas/Stream`, { method: "GET", headers: { ...requestHeaders(o, "text/event-stream"), "last-event-id": String(last) }, signal: abort.signal });
              if (!res.ok || !res.body) throw answerError(res.status, parseJson(await res.text(), "a resposta"), res.headers.get("retry-after") ?? undefined);
              for await (const e of eventsOf(res.body, abort.signal)) {
                if (e.event !== "alerta") continue;
                last = Number(e.id ?? last);
                subscriber.next({ seq: last, event: parseJson(e.data, "o aviso") as AlertEvent });
              }
            } catch (error) {
              if (abort.signal.aborted) return;
              // A refusal (a bad token, a route the server lacks) ends the stream; a dropped connection reconnects.
              const dropped = error instanceof Error && "_tag" in error && (error._tag === "TransportError" || error._tag === "SourceTimeout");
              if (!dropped) return subscriber.error(error);
            }
            await new Promise((resolve) => setTimeout(resolve, o.pollIntervalMs));
          }
        })();
        return () => abort.abort();
      }),
  };
};
