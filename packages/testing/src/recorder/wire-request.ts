import { companhiaOf, type SearchQuery } from "@voar/core";

/**
 * The request body (spec 2.1) of a query, as clients send it.
 *
 * @example
 * wireRequestOf(query); // { Origem: "CNF", Destino: "SDU", Ida: "2026-09-15", Adultos: 1, Criancas: 0, Bebes: 0, Companhia: -1 }
 */
export const wireRequestOf = (query: SearchQuery): Record<string, unknown> => ({
  Origem: query.origin,
  Destino: query.destination,
  Ida: query.departureDate,
  ...(query.returnDate === undefined ? {} : { Volta: query.returnDate }),
  Adultos: query.passengers.adults,
  Criancas: query.passengers.children,
  Bebes: query.passengers.infants,
  Companhia: companhiaOf(query.mode),
});
