/**
 * Reads `Retry-After`: seconds (`2`) or an HTTP date. Undefined when absent or unreadable.
 *
 * @example
 * retryAfterMs("2"); // 2000
 */
export const retryAfterMs = (value: string | undefined, now: number = Date.now()): number | undefined => {
  if (value === undefined || value.trim() === "") return undefined;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};
