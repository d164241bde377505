import { createSimulator, type SimulatorOptions } from "@voar/testing";
import type { FieldError, ModeAResultGroup, ModeBSearchResult, Pagination, SearchSource, WireProgress } from "@voar/core";
import { createApp } from "../../src/app/create-app.js";
import { priceCalendar } from "../../src/calendar/price-calendar.js";
import type { AppDeps } from "../../src/app/app-deps.js";
import type { Clock } from "../../src/clock.js";
import { defineConfig } from "../../src/config/load-config.js";
import type { ServiceConfigInput } from "../../src/config/config-schema.js";
import type { Logger, LogRecord } from "../../src/logging/logger.js";

/** Credentials of the test configuration. */
export const API_KEY = "test-api-key-0123456789";
export const OTHER_KEY = "other-api-key-0123456789";
export const ADMIN_KEY = "test-admin-key-0123456789";
export const AGENCY = { username: "agencia1", password: "s3nha-da-agencia" } as const;
export const TOKEN_SECRET = "a-token-signing-secret-of-32-chars-at-least";

/** "Now" of every test: 2 March 2026, midday in São Paulo. */
export const NOW = Date.parse("2026-03-02T15:00:00Z");

/** A one-way query of the spec's request (CNF -> GRU), 18 days ahead. */
export const QUERY = { Origem: "CNF", Destino: "GRU", Ida: "2026-03-20" } as const;

/** A clock the test moves by hand. */
export const manualClock = (start = NOW) => {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms), set: (ms: number) => void (t = ms) } satisfies Clock & Record<string, unknown>;
};

/** A logger that keeps its records (and their JSON text, to check what never appears in logs). */
export const memoryLogger = () => {
  const records: LogRecord[] = [];
  const logger: Logger = { log: (r) => void records.push(JSON.parse(JSON.stringify(r)) as LogRecord) };
  return { logger, records, text: () => records.map((r) => JSON.stringify(r)).join("\n") };
};

/** The test configuration: one API key per tenant, an agency, an admin key, defaults otherwise. */
export const testConfig = (over: Partial<ServiceConfigInput> = {}) =>
  defineConfig({
    apiKeys: [
      { name: "acme", key: API_KEY },
      { name: "other", key: OTHER_KEY },
    ],
    agencies: [AGENCY],
    adminKeys: [ADMIN_KEY],
    tokens: { secret: TOKEN_SECRET },
    limits: { rateLimit: { capacity: 10_000, refillPerSecond: 10_000 } },
    ...over,
  });

/** Simulated sources that answer fast: 200 ms each, in 2 batches. */
export const fastSources = (options: SimulatorOptions = {}): readonly SearchSource[] =>
  createSimulator({ latencyMs: 200, batches: 2, ...options }).sources;

/** An app over fast simulated sources with the test configuration; anything may be overridden. */
export const testApp = (over: Partial<AppDeps> & { readonly configInput?: Partial<ServiceConfigInput> } = {}) => {
  const logs = memoryLogger();
  const { configInput, ...deps } = over;
  const app = createApp({ config: testConfig(configInput), sources: fastSources(), logger: logs.logger, priceCalendar: priceCalendar(), ...deps });
  return { app, logs };
};

type App = ReturnType<typeof createApp>;

/** POSTs a JSON body (or raw text) with the test API key unless headers say otherwise. */
export const post = (app: App, path: string, body: unknown, headers: Record<string, string> = {}) =>
  app.request(path, {
    method: "POST",
    headers: { Authorization: `Bearer ${API_KEY}`, "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

/**
 * A search answer as assertions read it: success and failure envelopes merged, so a test reads the member
 * it expects (a missing one fails the test at run time). Validation against the real schemas is separate.
 */
export interface Answer {
  readonly TotalItens: number;
  readonly Completed: boolean;
  readonly Success: boolean;
  readonly HasResult: boolean;
  readonly Erro: { readonly Codigo: string; readonly Retentavel: boolean; readonly Campos: readonly FieldError[] };
  readonly MensagemErro: string;
  readonly Token: string;
  readonly RequestId: string;
  readonly Data: readonly [ModeAResultGroup & ModeBSearchResult & { readonly LeaseId?: string }];
  readonly pagination: Pagination;
  readonly Progresso: WireProgress;
  readonly ExErro: { readonly Extensions: { readonly LeaseId: string } } | null;
}

/** Parses a response body as a search answer. */
export const answerOf = async (res: Response): Promise<Answer> => (await res.json()) as Answer;

/** POSTs to the search endpoint and parses the envelope. */
export const consultar = async (app: App, body: unknown, headers: Record<string, string> = {}) => {
  const res = await post(app, "/api/ConsultaAereo/Consultar", body, headers);
  return { res, status: res.status, body: await answerOf(res) };
};
