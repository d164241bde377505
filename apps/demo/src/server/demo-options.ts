/**
 * The demo's settings: where it listens, its keys, how the simulator behaves, or which real upstream it
 * asks instead. Every field has a default, so `pnpm demo` needs nothing configured.
 */

/** A real ConsultaAereo upstream the demo searches instead of the simulator. */
export interface UpstreamSettings {
  /** Base URL of its API, e.g. `https://host/api`. */
  readonly baseUrl: string;
  /** A static bearer token, or an agency login exchanged at `POST {baseUrl}/Token`. */
  readonly credentials: { readonly token: string } | { readonly username: string; readonly password: string };
}

/** Options of {@link startDemoServer}. */
export interface DemoOptions {
  /** TCP port; 0 picks a free one. Default 8787. */
  readonly port: number;
  /** Interface to listen on. Default 127.0.0.1: the demo hands its keys to whoever opens the page. */
  readonly hostname: string;
  /** The API key the page and the CLI search with (16+ characters). */
  readonly apiKey: string;
  /** The operator's key for the Pagante switch (16+ characters). */
  readonly adminKey: string;
  /** Simulator seed (same seed and query, same flights). */
  readonly seed: number;
  /**
   * Time a simulated source takes to answer completely: `[min, max]` in ms, spread over the sources so
   * that their answers arrive one after another. Default 1-3 s, so progress is visible.
   */
  readonly latencyMs: readonly [min: number, max: number];
  /** Ids of simulated sources that fail on purpose, to show a partial failure. Default one OTA. */
  readonly failures: readonly string[];
  /** A real upstream instead of the simulator. */
  readonly upstream?: UpstreamSettings | undefined;
  /** Other `VOAR_*` settings of the service (see `@voar/hono-edge` `ENV_VARS`). */
  readonly serviceEnv: Readonly<Record<string, string | undefined>>;
  /** Where logs go; default: warnings and errors on stderr. */
  readonly log?: ((line: string) => void) | undefined;
}

/** The OTA that fails by default, so the page shows a partial-failure banner in the OTA comparison. */
export const DEFAULT_FAILING_SOURCE = "ota:bilhete-facil";

/** Demo keys: made up, printed on the console and given to the page. */
export const DEMO_API_KEY = "demo-api-key-voar-0001";
export const DEMO_ADMIN_KEY = "demo-admin-key-voar-0001";

/** The defaults of every option. */
export const DEFAULT_DEMO_OPTIONS: DemoOptions = {
  port: 8787,
  hostname: "127.0.0.1",
  apiKey: DEMO_API_KEY,
  adminKey: DEMO_ADMIN_KEY,
  seed: 42,
  latencyMs: [1_000, 3_000],
  failures: [DEFAULT_FAILING_SOURCE],
  serviceEnv: {},
};

/** Thrown when an environment variable of the demo cannot be read; the message names it. */
export class DemoOptionError extends Error {
  readonly _tag = "DemoOptionError";
  constructor(readonly variable: string, detail: string) {
    super(`${variable}: ${detail}`);
    this.name = "DemoOptionError";
  }
}

const integer = (env: Readonly<Record<string, string | undefined>>, name: string, fallback: number, min: number, max: number): number => {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new DemoOptionError(name, `deve ser um inteiro entre ${min} e ${max}, veio "${text}"`);
  return n;
};

const upstreamOf = (env: Readonly<Record<string, string | undefined>>): UpstreamSettings | undefined => {
  const baseUrl = env["VOAR_UPSTREAM_URL"]?.trim();
  if (!baseUrl) return undefined;
  if (!/^https?:\/\//.test(baseUrl)) throw new DemoOptionError("VOAR_UPSTREAM_URL", `deve ser uma URL http(s), veio "${baseUrl}"`);
  const token = env["VOAR_UPSTREAM_TOKEN"]?.trim();
  const username = env["VOAR_UPSTREAM_USERNAME"]?.trim();
  const password = env["VOAR_UPSTREAM_PASSWORD"];
  if (token) return { baseUrl, credentials: { token } };
  if (username && password) return { baseUrl, credentials: { username, password } };
  throw new DemoOptionError("VOAR_UPSTREAM_URL", "defina também VOAR_UPSTREAM_TOKEN, ou VOAR_UPSTREAM_USERNAME e VOAR_UPSTREAM_PASSWORD");
};

const keyOf = (env: Readonly<Record<string, string | undefined>>, name: string, fallback: string): string => {
  const key = env[name]?.trim() || fallback;
  if (key.length < 16) throw new DemoOptionError(name, "deve ter ao menos 16 caracteres");
  return key;
};

/**
 * The demo's options from environment variables: `PORT`, `HOST`, `VOAR_DEMO_API_KEY`, `VOAR_DEMO_ADMIN_KEY`,
 * `VOAR_DEMO_SEED`, `VOAR_DEMO_LATENCY_MS` (`min-max`), `VOAR_DEMO_FAILURES` (source ids, or `none`), and
 * `VOAR_UPSTREAM_URL` with `VOAR_UPSTREAM_TOKEN` or `VOAR_UPSTREAM_USERNAME`/`VOAR_UPSTREAM_PASSWORD` for a real
 * upstream. Other `VOAR_*` variables configure the service itself. Throws {@link DemoOptionError}.
 */
export const demoOptionsFromEnv = (env: Readonly<Record<string, string | undefined>>): DemoOptions => {
  const latency = env["VOAR_DEMO_LATENCY_MS"]?.trim();
  let latencyMs = DEFAULT_DEMO_OPTIONS.latencyMs;
  if (latency) {
    const m = /^(\d{1,6})-(\d{1,6})$/.exec(latency);
    if (!m || Number(m[1]) > Number(m[2])) throw new DemoOptionError("VOAR_DEMO_LATENCY_MS", `deve ser "min-max" em ms, ex. 1000-3000, veio "${latency}"`);
    latencyMs = [Number(m[1]), Number(m[2])];
  }
  const failures = env["VOAR_DEMO_FAILURES"]?.trim();
  return {
    port: integer(env, "PORT", DEFAULT_DEMO_OPTIONS.port, 0, 65_535),
    hostname: env["HOST"]?.trim() || DEFAULT_DEMO_OPTIONS.hostname,
    apiKey: keyOf(env, "VOAR_DEMO_API_KEY", DEMO_API_KEY),
    adminKey: keyOf(env, "VOAR_DEMO_ADMIN_KEY", DEMO_ADMIN_KEY),
    seed: integer(env, "VOAR_DEMO_SEED", DEFAULT_DEMO_OPTIONS.seed, 0, Number.MAX_SAFE_INTEGER),
    latencyMs,
    failures:
      failures === undefined || failures === ""
        ? DEFAULT_DEMO_OPTIONS.failures
        : failures === "none"
          ? []
          : failures.split(",").map((s) => s.trim()).filter(Boolean),
    upstream: upstreamOf(env),
    serviceEnv: env,
  };
};
