import { companhiaOf, type SearchQuery } from "../query/query.js";

/**
 * The body of `POST /ConsultaAereo/Consultar` for a query (spec 2.1), as clients send it: the inverse of
 * `parseSearchRequest`. `Volta` only for a round trip; no paging members (add them for Mode A).
 *
 * @example
 * wireRequestOf(query); // { Origem: "CNF", Destino: "SDU", Ida: "YYYY-MM-DD", Adultos: 1, Criancas: 0, Bebes: 0, Companhia: -1 }
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
