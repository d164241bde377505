import { todayInSaoPaulo } from "@voar/core";

/**
 * A date argument as typed: `+N` is N days after today (São Paulo, the service's "today"); anything else is
 * passed on as it is, for the service's rules to judge. Kept apart so that `voar search` can share it.
 *
 * @example
 * relativeDate("+30", new Date("2026-03-02T12:00:00Z")); // "2026-04-01"
 */
export const relativeDate = (text: string, now: Date = new Date()): string => {
  const match = /^\+(\d{1,3})$/.exec(text.trim());
  if (!match) return text;
  const today = todayInSaoPaulo(now);
  const day = Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1, Number(today.slice(8, 10))) + Number(match[1]) * 86_400_000;
  return new Date(day).toISOString().slice(0, 10);
};
