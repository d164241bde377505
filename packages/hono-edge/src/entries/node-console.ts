import { format } from "node:util";
import type { Logger, LogRecord } from "../logging/logger.js";

/** Messages libraries print that an operator should read as a named event, not as a library's prose. */
const KNOWN: readonly { readonly pattern: RegExp; readonly msg: string; readonly detail: string }[] = [
  {
    pattern: /does not require a password, but a password was supplied/,
    msg: "redis.password_not_needed",
    detail: "the Redis URL carries a password this Redis does not ask for: take it out of VOAR_STORE_REDIS_URL, or set one on the server",
  },
];

/**
 * Sends what libraries print to the console, and the process's warnings, to the service's log as JSON lines (with
 * their time, redacted like every line), instead of raw lines on stderr: ioredis prints a warning with `console.warn`
 * when a Redis does not need the password the URL carries, and an unhandled client error with `console.error`;
 * Node prints its warnings (a deprecation, too many listeners). A known message gets an event name of its own
 * (`redis.password_not_needed`); any other is `console.warn`/`console.error`/`console.log` with its text, and a
 * process warning `process.warning` with its name. Node entry only: it replaces the global console's methods.
 */
export const captureConsole = (logger: Logger): void => {
  const as = (level: LogRecord["level"], method: string) => (...args: unknown[]) => {
    const text = format(...args);
    const known = KNOWN.find((k) => k.pattern.test(text));
    logger.log(known ? { level: "warn", msg: known.msg, detail: known.detail } : { level, msg: `console.${method}`, text });
  };
  console.error = as("error", "error");
  console.warn = as("warn", "warn");
  console.log = as("info", "log");
  console.info = as("info", "info");
  console.debug = as("debug", "debug");
  // Node's own printing of process warnings goes; each warning becomes one line of the log.
  process.removeAllListeners("warning");
  process.on("warning", (w: Error & { code?: string }) => logger.log({ level: "warn", msg: "process.warning", name: w.name, ...(w.code ? { code: w.code } : {}), text: w.message }));
};
