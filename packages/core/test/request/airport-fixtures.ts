import type { Airport, AirportDirectory } from "../../src/domain/airport.js";

/** A tiny airport directory for request tests: a few Brazilian airports and Lisbon. */
const AIRPORTS: readonly Airport[] = [
  ["CNF", "Tancredo Neves International Airport", "Belo Horizonte"],
  ["GIG", "Galeão International Airport", "Rio de Janeiro"],
  ["SDU", "Santos Dumont Airport", "Rio de Janeiro"],
  ["GRU", "Guarulhos International Airport", "São Paulo"],
  ["LIS", "Humberto Delgado Airport", "Lisboa"],
].map(([iata, name, city]) => ({
  iata: iata!,
  name: name!,
  city: city!,
  country: iata === "LIS" ? "Portugal" : "Brazil",
  latitude: 0,
  longitude: 0,
  timeZone: iata === "LIS" ? "Europe/Lisbon" : "America/Sao_Paulo",
}));

/** The test directory. */
export const testAirports: AirportDirectory = {
  get: (iata) => AIRPORTS.find((a) => a.iata === iata.toUpperCase()),
  search: () => [],
};

/** 2025-07-10 09:00 in São Paulo. */
export const NOW = new Date("2025-07-10T12:00:00Z");

/** The request context of the tests. */
export const ctx = { airports: testAirports, now: NOW } as const;
