/**
 * The variables the runtime entries read besides the service's own settings (`ENV_VARS`): where to listen, the
 * embedded simulator's, and the Node entry's own. The configuration reference documents each from its comment,
 * and `voar-server` names any other `VOAR_*` variable it is given as unknown (see `unknown-variables.ts`).
 */
export const ENTRY_VARS = {
  /** Port to listen on (Node, Deno, Bun); 0 picks a free one. Default 8787 (on Node, `PORT` when this is not set). */
  port: "VOAR_PORT",
  /**
   * Address to listen on (Node, Deno, Bun). Default `0.0.0.0`, every IPv4 interface: the service is meant to be
   * reached from other machines, and in a container (the Dockerfile, compose) the published port reaches it only
   * there. Set `127.0.0.1` to serve this machine alone (a proxy in front on the same host), `::` for IPv6 too.
   */
  hostname: "VOAR_HOSTNAME",
  /** Latency of every simulated source, in ms (default: the simulator's, 0.3 s to 2.5 s per source). */
  simulatorLatencyMs: "VOAR_SIMULATOR_LATENCY_MS",
  /** Seed of the simulator (default 42). */
  simulatorSeed: "VOAR_SIMULATOR_SEED",
  /** Path of a JSON file holding the configuration (the file keys above); the variables override it. Node entry (`voar-server`). */
  configFile: "VOAR_CONFIG_FILE",
  /**
   * `true`: a `VOAR_*` variable that is none of these nor a setting's stops `voar-server` at start, as an invalid
   * setting does; otherwise it is logged as a warning (`config.unknown_variable`) naming the closest known name.
   * Default `false`. Node entry.
   */
  strictEnv: "VOAR_STRICT_ENV",
} as const;
