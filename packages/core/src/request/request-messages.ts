import { AIRLINES } from "../domain/airline.js";
import { MAX_DAYS_AHEAD } from "./request-dates.js";

/**
 * The pt-BR messages of an invalid request, one per rule, each naming the field as the spec writes it.
 * Kept apart from the validator so that they can be reviewed (and tested) as the client will read them.
 */
export const REQUEST_MESSAGES = {
  body: "O corpo da requisição deve ser um objeto JSON com os campos da busca.",
  conflict: (field: string) => `${field} foi informado mais de uma vez, com valores diferentes.`,
  required: {
    Ida: "Ida é obrigatória: informe a data de ida no formato AAAA-MM-DD.",
    Origem: "Origem é obrigatória: informe o código IATA de 3 letras do aeroporto de partida.",
    Destino: "Destino é obrigatório: informe o código IATA de 3 letras do aeroporto de chegada.",
  },
  date: (field: "Ida" | "Volta") => `${field} deve ser uma data válida no formato AAAA-MM-DD.`,
  datePast: (field: "Ida" | "Volta", today: string) =>
    `${field} não pode ser anterior a hoje (${today}, horário de São Paulo).`,
  dateTooFar: (field: "Ida" | "Volta", last: string) =>
    `${field} deve estar no máximo ${MAX_DAYS_AHEAD} dias à frente (até ${last}).`,
  returnBeforeDeparture: "Volta não pode ser anterior a Ida.",
  airportCode: (field: "Origem" | "Destino") => `${field} deve ser um código IATA de 3 letras (por exemplo, CNF).`,
  airportUnknown: (field: "Origem" | "Destino", code: string) => `${field} não corresponde a um aeroporto conhecido: ${code}.`,
  sameAirport: "Destino deve ser diferente de Origem.",
  Adultos: "Adultos deve ser um número inteiro entre 1 e 9.",
  Criancas: "Criancas deve ser um número inteiro entre 0 e 9.",
  Bebes: "Bebes deve ser um número inteiro entre 0 e 9.",
  tooManyPassengers: "Adultos + Criancas não pode passar de 9 passageiros.",
  infantsOverAdults: "Bebes não pode ser maior que Adultos: cada bebê viaja no colo de um adulto.",
  Companhia: `Companhia deve ser -1 ou null (todas as companhias), 1300 (comparação entre agências) ou o id de uma companhia: ${AIRLINES.map((a) => `${a.id} ${a.name}`).join(", ")}.`,
  NumeroPagina: "NumeroPagina deve ser um número inteiro maior ou igual a 1.",
  QuantidadePorPagina: "QuantidadePorPagina deve ser um número inteiro entre 1 e 100.",
  searchId: (field: "Token" | "LeaseId") => `${field} deve ser um texto não vazio: o id da busca recebido na resposta anterior.`,
} as const;
