import type { Airport } from "@voar/core";

/**
 * What the demo server tells its page at `GET /demo-config.json`: where the API is and the demo's own
 * keys, so a newcomer searches without typing a credential. Shared by the server and the page.
 */

/** Where the results come from. */
export type DemoBackend = "simulador" | "fornecedor";

/** The body of `GET /demo-config.json`. */
export interface DemoConfig {
  /** Base URL of the API, relative to the page: `/api`. */
  readonly apiBaseUrl: string;
  /** A demo API key (Bearer token) the page searches with. */
  readonly apiKey: string;
  /**
   * The demo's admin key, offered in the operator panel. A real deployment never hands its admin key to a
   * page; the demo does, because it runs on the person's own machine with keys made up for it.
   */
  readonly adminKey: string;
  /** The embedded simulator, or a real upstream configured by the person. */
  readonly backend: DemoBackend;
  /** Interactive API reference. */
  readonly docsUrl: string;
  /** The documentation site (guides, configuration, errors, API reference), served by the demo under `/docs/`. */
  readonly siteDocsUrl: string;
  /** The OpenAPI document. */
  readonly openApiUrl: string;
  /** Sources that fail on purpose, to show a partial failure (simulator only). */
  readonly simulatedFailures: readonly string[];
  /**
   * The single-airline Companhia ids the deployment has a source for: a search of another id asks no one
   * (the simulator has no Interline; a real upstream's account lists its own, `VOAR_UPSTREAM_AIRLINES`).
   */
  readonly companhias: readonly number[];
  /** The demo's webhook receiver for price alerts (same origin as the page): the "me avise" control's `Webhook`. */
  readonly alertWebhookPath?: string | undefined;
  /** What the receiver got, newest first (the page polls it). */
  readonly alertDeliveriesPath?: string | undefined;
}

/** One airport of the autocomplete, `GET /demo/airports?q=`: core's airport, time zone included. */
export type AirportSuggestion = Airport;

/** Path of the demo configuration. */
export const DEMO_CONFIG_PATH = "/demo-config.json";
/** Path of the airport autocomplete. */
export const AIRPORTS_PATH = "/demo/airports";
