/**
 * Maps what an HTTP stack throws to the core's tagged errors, by error codes (undici's `UND_ERR_*`, the
 * system's `ECONNRESET`...), never by message text. Runtime-neutral: it only reads properties.
 */
import { SourceTimeout, TransportError, isSourceError, type SourceError } from "@voar/core";

/** Milliseconds of the limits behind undici's timeout codes, to say how long was waited. */
export interface TimeoutLimits {
  readonly connectMs?: number | undefined;
  readonly headersMs?: number | undefined;
  readonly bodyMs?: number | undefined;
}

const codeOf = (error: unknown): string | undefined => {
  for (let e: unknown = error, depth = 0; typeof e === "object" && e !== null && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
};

const nameOf = (error: unknown): string => (error instanceof Error ? error.name : typeof error);

/**
 * What to throw for an error met while sending or reading: the signal's reason when the signal aborted (the
 * caller's cancellation or our own timeout, already tagged), a {@link SourceTimeout} for a timeout code, else
 * a {@link TransportError} naming the code (or the error's class) and what was being done.
 */
export const transportFailure = (error: unknown, signal: AbortSignal, doing: string, limits: TimeoutLimits = {}): unknown => {
  if (signal.aborted) return signal.reason;
  if (isSourceError(error)) return error;
  const code = codeOf(error);
  const timeout = (ms: number | undefined): SourceError => new SourceTimeout({ afterMs: ms ?? 0 });
  switch (code) {
    case "UND_ERR_CONNECT_TIMEOUT":
      return timeout(limits.connectMs);
    case "UND_ERR_HEADERS_TIMEOUT":
      return timeout(limits.headersMs);
    case "UND_ERR_BODY_TIMEOUT":
      return timeout(limits.bodyMs);
    default:
      return new TransportError({ detail: `${doing}: ${code ?? nameOf(error)}` });
  }
};
