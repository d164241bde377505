import type { Clock } from "../clock.js";
import type { Logger, LogRecord } from "../logging/logger.js";
import { BoundedMap } from "../util/bounded-map.js";

/** Options of {@link throttleSummary}. */
export interface ThrottleSummaryOptions {
  readonly logger: Logger;
  readonly clock: Clock;
  /** The event name of the lines (e.g. `login.account_throttled`). */
  readonly msg: string;
  /** The field the key is logged as (e.g. `username`). */
  readonly keyField: string;
  /** Longest time between two lines while refusals go on, and the quiet time that ends an episode. Default 5 min. */
  readonly everyMs?: number | undefined;
  /** Level of the lines. Default `warn`. */
  readonly level?: LogRecord["level"] | undefined;
}

interface Episode {
  readonly since: number;
  lastSeen: number;
  lastLogged: number;
  refused: number;
  readonly clients: Set<string>;
}

/** Distinct clients counted per line: enough to tell one address from a botnet, bounded whatever comes. */
const MAX_CLIENTS = 1_000;

/**
 * Logs a run of refusals of one key (an account under attack from many addresses, a client holding too
 * many connections) as a few lines instead of one per refused attempt: one `warn` when the run begins, then, while it goes on, one every `everyMs` with
 * how many attempts were refused since the previous line and from how many client addresses (when given). A run ends
 * after `everyMs` without a refusal; the next one begins with a new first line. No timer: a line is written
 * by the refusal that finds it due, so a run that stops leaves nothing pending.
 *
 * @example
 * const note = throttleSummary({ logger, clock, msg: "login.account_throttled", keyField: "username" });
 * note("agencia1", "203.0.113.7", { retryAfterSeconds: 60 });
 */
export const throttleSummary = (options: ThrottleSummaryOptions) => {
  const everyMs = options.everyMs ?? 300_000;
  const episodes = new BoundedMap<string, Episode>(10_000);
  const level = options.level ?? "warn";
  return (key: string, client: string | undefined, fields: Readonly<Record<string, unknown>> = {}): void => {
    const now = options.clock.now();
    const run = episodes.get(key);
    if (!run || now - run.lastSeen >= everyMs) {
      episodes.set(key, { since: now, lastSeen: now, lastLogged: now, refused: 0, clients: new Set() });
      options.logger.log({ level, msg: options.msg, [options.keyField]: key, ...(client === undefined ? {} : { client }), ...fields });
      return;
    }
    run.lastSeen = now;
    run.refused++;
    if (client !== undefined && run.clients.size < MAX_CLIENTS) run.clients.add(client);
    if (now - run.lastLogged < everyMs) return;
    options.logger.log({
      level,
      msg: options.msg,
      [options.keyField]: key,
      refused: run.refused,
      ...(run.clients.size > 0 ? { clients: run.clients.size } : {}),
      sinceMs: now - run.since,
      ...fields,
    });
    run.lastLogged = now;
    run.refused = 0;
    run.clients.clear();
  };
};
