import { AIRPORTS_PATH, type AirportSuggestion } from "../../shared/demo-config.js";

/** Airports whose code, city or name match a text, best first (the demo server's directory). */
export const searchAirports = async (text: string, signal?: AbortSignal): Promise<readonly AirportSuggestion[]> => {
  const q = text.trim();
  if (q.length === 0) return [];
  const response = await fetch(`${AIRPORTS_PATH}?q=${encodeURIComponent(q)}`, { signal: signal ?? null });
  if (!response.ok) throw new Error(`${AIRPORTS_PATH} respondeu HTTP ${response.status}`);
  return (await response.json()) as AirportSuggestion[];
};

/** The airport of an exact IATA code, if the directory knows it. */
export const findAirport = async (code: string, signal?: AbortSignal): Promise<AirportSuggestion | undefined> => {
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(upper)) return undefined;
  return (await searchAirports(upper, signal)).find((a) => a.iata === upper);
};
