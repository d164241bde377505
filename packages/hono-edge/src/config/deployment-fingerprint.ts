import type { ServiceConfig } from "./config-schema.js";
import { UPSTREAM_AIRLINE_IDS } from "./deploy-schema.js";

/**
 * A deployment's fingerprint: a short digest of what answers its searches, so that deployments sharing one
 * Redis (one in front of an upstream, one on the simulator, two upstream accounts) never answer each other's
 * queries or Tokens, without the operator having to choose a key prefix for each.
 *
 * What counts is what answers a search, its sources: the upstream's URL, its account (the username, or a
 * digest of a static token: never a secret itself) and its allow-list of airlines and OTA comparison; or the
 * embedded simulator with its seed and latency; and the subset of sources the configuration runs
 * (`search.sources`). Instances of one deployment compute the same fingerprint and share their searches.
 * What does not change an answer is left out on purpose, so that a rolling change of it keeps every search:
 * API keys, agencies and their `compat` (how answers are written, not what a search holds; tenants already
 * keep their searches apart), passwords, limits, timeouts.
 */

/** The embedded simulator's settings, as the entry read them (`VOAR_SIMULATOR_SEED`, `VOAR_SIMULATOR_LATENCY_MS`). */
export interface SimulatorIdentity {
  readonly seed?: number | undefined;
  readonly latencyMs?: number | undefined;
}

const encoder = new TextEncoder();

/** SHA-256 of a text, in hex (Web Crypto: every runtime has it). */
const sha256 = async (text: string): Promise<string> => {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
};

/** The base URL as one spelling: scheme and host lower-cased, default port dropped, no trailing slash. */
const canonicalUrl = (url: string): string => new URL(url).href.replace(/\/+$/, "");

/**
 * What answers the deployment's searches, as canonical JSON text: secrets appear only as their SHA-256.
 * `simulator` is read when the configuration has no upstream.
 */
export const deploymentIdentity = async (config: ServiceConfig, simulator: SimulatorIdentity = {}): Promise<string> => {
  const u = config.upstream;
  const sources = u
    ? {
        upstream: canonicalUrl(u.url),
        account: u.token !== undefined ? `token-sha256:${await sha256(u.token)}` : `user:${u.username ?? ""}`,
        airlines: [...(u.airlines ?? UPSTREAM_AIRLINE_IDS)].sort((a, b) => a - b),
        otas: u.otas,
      }
    : { simulator: { seed: simulator.seed ?? "default", latencyMs: simulator.latencyMs ?? "default" } };
  const only = config.search.sources ? [...config.search.sources].sort() : "all";
  return JSON.stringify({ v: 1, sources, only });
};

/**
 * The fingerprint of a deployment: the first 16 hex digits of the SHA-256 of {@link deploymentIdentity}.
 *
 * @example
 * const fingerprint = await deploymentFingerprint(config, { seed: 7 });
 * const store = createRedisSessionStore({ redis, ttlMs, keyPrefix: deploymentKeyPrefix(config.store.redis?.keyPrefix, fingerprint) });
 */
export const deploymentFingerprint = async (config: ServiceConfig, simulator: SimulatorIdentity = {}): Promise<string> =>
  (await sha256(await deploymentIdentity(config, simulator))).slice(0, 16);

/**
 * The key prefix of a deployment on a shared Redis: the operator's prefix (default `voar:`, a hash tag such
 * as `{voar}:` kept first for a cluster), then the fingerprint: `voar:3f9c0a1b2d4e5f60:`.
 */
export const deploymentKeyPrefix = (keyPrefix: string | undefined, fingerprint: string): string => `${keyPrefix ?? "voar:"}${fingerprint}:`;
