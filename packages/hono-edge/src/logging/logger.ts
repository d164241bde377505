/**
 * Structured logs: one JSON object per line, through an injected {@link Logger}. Records carry ids,
 * names, numbers and clean messages only: callers never put a token, a password or a body in them.
 */

/** A log record: a level, an event name and flat fields. */
export interface LogRecord {
  readonly level: "debug" | "info" | "warn" | "error";
  /** What happened, e.g. `request`, `search.started`. */
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** Where the service writes its logs. */
export interface Logger {
  log(record: LogRecord): void;
}

/**
 * A logger writing JSON lines through `write` (default `console.log`, which every runtime has).
 *
 * @example
 * const logger = jsonLinesLogger((line) => process.stdout.write(line + "\n"));
 */
export const jsonLinesLogger = (write: (line: string) => void = (line) => console.log(line)): Logger => ({
  log: (record) => write(JSON.stringify(record)),
});

/** A logger that drops every record (tests that do not look at logs). */
export const silentLogger: Logger = { log: () => undefined };
