import { activeTraceId } from "../telemetry/tracing.js";
import { redactRecord } from "./log-redactor.js";

/**
 * Structured logs: one JSON object per line, through an injected {@link Logger}. Records carry ids,
 * names, numbers and clean messages only: callers never put a token, a password or a body in them. Text
 * written by others (an upstream's error detail) may hold secrets: every record is redacted on its way out
 * (`log-redactor.ts`).
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

const REDACTING = Symbol("redacting");

/**
 * A logger that redacts every record ({@link redactRecord}) before handing it to `inner`. Wrapping a logger
 * that already redacts returns it as is, so a record is redacted once however the loggers are composed.
 *
 * @example
 * const logger = redactingLogger({ log: (r) => myLogs.push(r) });
 */
export const redactingLogger = (inner: Logger): Logger => {
  if (REDACTING in inner) return inner;
  return { [REDACTING]: true, log: (record) => inner.log(redactRecord(record)) } as Logger;
};

/** The record with the `trace_id` of the active span (the request or search it is about), when tracing records. */
const withTraceId = (record: LogRecord): LogRecord => {
  if (record["trace_id"] !== undefined) return record;
  const traceId = activeTraceId();
  return traceId === undefined ? record : { ...record, trace_id: traceId };
};

/**
 * A logger writing JSON lines through `write` (default `console.log`, which every runtime has), each record
 * redacted first, with the `trace_id` of the active span when an OpenTelemetry SDK records traces.
 *
 * @example
 * const logger = jsonLinesLogger((line) => process.stdout.write(line + "\n"));
 */
export const jsonLinesLogger = (write: (line: string) => void = (line) => console.log(line)): Logger =>
  redactingLogger({ log: (record) => write(JSON.stringify(withTraceId(record))) });

/** A logger that drops every record (tests that do not look at logs). */
export const silentLogger: Logger = { log: () => undefined };
