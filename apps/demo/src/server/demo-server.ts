import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { AIRLINES, sourcesFor, type SearchSource } from "@voar/core";
import { airportsPtBr } from "@voar/core/airports";
import { ConfigError, createApp, loadConfig, priceAlerts, priceCalendar, type Logger } from "@voar/hono-edge";
import type { Hono } from "hono";
import { ALERT_DELIVERIES_PATH, ALERT_WEBHOOK_PATH, mountAlertReceiver } from "./demo-alerts.js";
import { nodeDocsAssets } from "@voar/hono-edge/node-docs";
import type { DemoConfig } from "../shared/demo-config.js";
import { createDemoApp } from "./demo-app.js";
import { DEFAULT_DEMO_OPTIONS, type DemoOptions } from "./demo-options.js";
import { simulatedSources, type DemoSources } from "./demo-sources.js";
import { upstreamSources } from "./upstream-sources.js";
import { DOCS_BUILD_COMMAND, DOCS_DIST, docsSiteBuilt } from "./docs-site.js";
import { ensureWebBuild, WEB_DIST } from "./web-build.js";

/** A running demo. */
export interface DemoServer {
  /** The page, e.g. `http://127.0.0.1:8787/`. */
  readonly url: string;
  /** Base URL of the API, for `--base-url` and the SDK: `http://127.0.0.1:8787/api`. */
  readonly apiUrl: string;
  readonly port: number;
  readonly options: DemoOptions;
  /** What the page is told. */
  readonly config: DemoConfig;
  /** Stops the searches and the server; resolves when every connection is closed. */
  close(): Promise<void>;
}

/** The single-airline Companhia ids some source serves, by the engine's own rule (`sourcesFor`). */
export const servedCompanhias = (sources: readonly SearchSource[]): readonly number[] =>
  AIRLINES.filter(
    (a) =>
      sourcesFor(
        { origin: "CNF", destination: "SDU", departureDate: "2000-01-01", passengers: { adults: 1, children: 0, infants: 0 }, mode: { kind: "single-airline", airlineId: a.id } },
        sources,
      ).length > 0,
  ).map((a) => a.id);

/** Warnings and errors of the service as readable lines; requests and routine events stay quiet. */
const consoleLogger = (write: (line: string) => void): Logger => ({
  log: (r) => {
    if (r.level === "warn" || r.level === "error") write(`[${r.level}] ${r.msg} ${JSON.stringify({ ...r, level: undefined, msg: undefined })}`);
  },
});

/** The service's configuration: the demo's keys and generous limits, then any other `VOAR_*` variable. */
const serviceConfig = (o: DemoOptions) => {
  const env = { ...o.serviceEnv, VOAR_API_KEYS: undefined, VOAR_ADMIN_KEYS: undefined };
  const result = loadConfig({
    file: {
      apiKeys: [{ name: "demo", key: o.apiKey }],
      adminKeys: [o.adminKey],
      limits: { rateLimit: { capacity: 600, refillPerSecond: 50 } },
      // The page's "me avise" posts alerts to the demo's own receiver, on this machine.
      alerts: { webhooks: { allowPrivateAddresses: true } },
    },
    env,
  });
  if (!result.ok) throw new ConfigError(result.errors);
  return result.config;
};

/**
 * Starts the demo: builds the page if needed, then serves the page, its settings and the Voar service (on
 * the simulator, or on the configured upstream) from one process.
 *
 * @example
 * const demo = await startDemoServer({ port: 0 });
 * console.log(demo.url);
 * await demo.close();
 */
export const startDemoServer = async (overrides: Partial<DemoOptions> = {}): Promise<DemoServer> => {
  const options: DemoOptions = { ...DEFAULT_DEMO_OPTIONS, ...overrides };
  const write = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const config = serviceConfig(options);
  const demoSources: DemoSources = options.upstream ? upstreamSources(options.upstream, config.upstream) : simulatedSources(options);
  await ensureWebBuild({ log: write });
  if (!docsSiteBuilt()) write(`A documentação em /docs ainda não foi construída: rode ${DOCS_BUILD_COMMAND}.`);

  const shutdown = new AbortController();
  const service = createApp({ config, sources: demoSources.sources, logger: consoleLogger(write), docsAssets: nodeDocsAssets(), signal: shutdown.signal, priceCalendar: priceCalendar(), priceAlerts: priceAlerts() });
  const pageConfig: DemoConfig = {
    apiBaseUrl: config.basePath,
    apiKey: options.apiKey,
    adminKey: options.adminKey,
    backend: demoSources.backend,
    docsUrl: `${config.basePath}/docs`,
    siteDocsUrl: "/docs/",
    openApiUrl: `${config.basePath}/openapi.json`,
    simulatedFailures: demoSources.failing,
    companhias: servedCompanhias(demoSources.sources),
    alertWebhookPath: ALERT_WEBHOOK_PATH,
    alertDeliveriesPath: ALERT_DELIVERIES_PATH,
  };
  // The receiver checks signatures with the demo tenant's secret, as any agency's receiver would.
  let secret: Promise<string> | undefined;
  const readSecret = async () => {
    const res = await service.fetch(new Request(`http://demo${config.basePath}/Alertas/Segredo`, { headers: { Authorization: `Bearer ${options.apiKey}` } }));
    return ((await res.json()) as { Data: { Segredo: string }[] }).Data[0]!.Segredo;
  };
  const extraRoutes = (app: Hono) => mountAlertReceiver(app, () => (secret ??= readSecret()));
  const app = createDemoApp({ service, basePath: config.basePath, config: pageConfig, airports: airportsPtBr, webRoot: WEB_DIST, docsRoot: DOCS_DIST, extraRoutes });

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port, hostname: options.hostname }, () => resolve(s));
    s.once("error", reject);
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.hostname === "0.0.0.0" || options.hostname === "::" ? "127.0.0.1" : options.hostname;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}/`,
    apiUrl: `${origin}${config.basePath}`,
    port,
    options,
    config: pageConfig,
    close: async () => {
      shutdown.abort();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Open SSE streams would keep close() waiting; searches are already stopped.
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
      await demoSources.close();
    },
  };
};
