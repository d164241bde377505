import { deepMerge as merge, isPlainObject } from "./deep-merge.js";
import { configFromEnv } from "./env-config.js";
import { ServiceConfigSchema, type ServiceConfig, type ServiceConfigInput } from "./config-schema.js";

/** Where the configuration comes from: a parsed file (JSON) and/or environment variables; the environment wins. */
export interface ConfigSources {
  /** The parsed configuration file, if any (its shape is {@link ServiceConfigInput}). */
  readonly file?: unknown;
  /** Environment variables (`VOAR_*`, see `ENV_VARS`). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

/** The outcome of {@link loadConfig}: the configuration, or every problem found, one readable line each. */
export type ConfigResult =
  | { readonly ok: true; readonly config: ServiceConfig }
  | { readonly ok: false; readonly errors: readonly string[] };

/** A configuration that does not validate; `errors` has one line per problem. Never carries a secret. */
export class ConfigError extends Error {
  readonly _tag = "ConfigError";
  constructor(readonly errors: readonly string[]) {
    super(`invalid configuration:\n  - ${errors.join("\n  - ")}`);
    this.name = "ConfigError";
  }
}

const validate = (input: unknown, origins: ReadonlyMap<string, string> = new Map()): ConfigResult => {
  const parsed = ServiceConfigSchema.safeParse(input);
  if (parsed.success) return { ok: true, config: parsed.data };
  const errors = parsed.error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    // Name the variable behind a setting, matching its path or a parent of it (apiKeys.0.key -> VOAR_API_KEYS).
    const from = [...origins].find(([p]) => path === p || path.startsWith(`${p}.`))?.[1];
    return `${path || "(root)"}: ${issue.message}${from ? ` (from ${from})` : ""}`;
  });
  return { ok: false, errors };
};

/**
 * Reads and validates the configuration from a file and/or the environment (environment first), with a
 * clear line per problem, naming the setting and, when it came from there, the environment variable.
 * Pure: the caller reads the file and passes the environment, so it runs on every runtime.
 *
 * @example
 * const result = loadConfig({ file: JSON.parse(text), env: process.env });
 * if (!result.ok) throw new ConfigError(result.errors);
 */
export const loadConfig = (sources: ConfigSources): ConfigResult => {
  if (sources.file !== undefined && !isPlainObject(sources.file)) {
    return { ok: false, errors: ["configuration file: must hold a JSON object"] };
  }
  const env = configFromEnv(sources.env ?? {});
  if (env.errors.length > 0) return { ok: false, errors: env.errors };
  return validate(merge(sources.file ?? {}, env.value), env.origins);
};

/**
 * Validates a configuration written in code, filling in every default; throws {@link ConfigError}.
 *
 * @example
 * const config = defineConfig({ apiKeys: [{ name: "acme", key: "a-long-random-secret" }] });
 */
export const defineConfig = (input: ServiceConfigInput): ServiceConfig => {
  const result = validate(input);
  if (!result.ok) throw new ConfigError(result.errors);
  return result.config;
};
