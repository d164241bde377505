import { activeTraceId, traceIdOfContext, type Context } from "../telemetry/tracing.js";
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
 * A logger whose records carry the trace id of `ctx` (a request's or a search's context), whatever context is
 * active when they are written: after an `await`, or in a timer, no span is active (the service hands its trace
 * context down itself), and a record written there would lose its trace. `logger` itself when `ctx` has no
 * trace (none given, or tracing off).
 *
 * @example
 * const log = loggerInTrace(logger, c.get("trace"));
 * await somethingAsync();
 * log.log({ level: "warn", msg: "login.failed" }); // still carries the request's trace_id
 */
export const loggerInTrace = (logger: Logger, ctx: Context | undefined): Logger => {
  const traceId = ctx === undefined ? undefined : traceIdOfContext(ctx);
  if (traceId === undefined) return logger;
  return { log: (record) => logger.log(record["trace_id"] === undefined ? { ...record, trace_id: traceId } : record) };
};

/**
 * A logger writing JSON lines through `write` (default `console.log`, which every runtime has), each record
 * redacted first, led by `time` (when it was written, ISO 8601 in UTC, to the millisecond), with the `trace_id` of
 * the active span when an OpenTelemetry SDK records traces.
 *
 * @example
 * const logger = jsonLinesLogger((line) => process.stdout.write(line + "\n"));
 * // {"time":"2026-11-27T10:41:07.123Z","level":"info","msg":"listening",...}
 */
export const jsonLinesLogger = (write: (line: string) => void = (line) => console.log(line)): Logger =>
  redactingLogger({ log: (record) => write(JSON.stringify({ time: new Date().toISOString(), ...withTraceId(record) })) });

/** A logger that drops every record (tests that do not look at logs). */
export const silentLogger: Logger = { log: () => undefined };
