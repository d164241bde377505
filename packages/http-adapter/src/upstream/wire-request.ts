import { wireRequestOf, type SearchQuery } from "@voar/core";

/** The paging members of a Mode A request: page `page` of `pageSize` groups. Other modes are not paged. */
export const pagingOf = (query: SearchQuery, page: number, pageSize: number): Record<string, number> =>
  query.mode.kind === "all-airlines" ? { NumeroPagina: page, QuantidadePorPagina: pageSize } : {};

/**
 * The body of `POST /ConsultaAereo/Consultar` for a query (spec 2.1): core's `wireRequestOf`, plus paging
 * in Mode A.
 *
 * @example
 * searchRequestBody(query, 1, 100); // { Origem: "CNF", Destino: "SDU", Ida: "YYYY-MM-DD", Adultos: 1, ..., Companhia: -1, NumeroPagina: 1, QuantidadePorPagina: 100 }
 */
export const searchRequestBody = (query: SearchQuery, page: number, pageSize: number): Record<string, unknown> => ({
  ...wireRequestOf(query),
  ...pagingOf(query, page, pageSize),
});
