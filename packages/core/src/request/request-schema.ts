import * as z from "zod";
import { AIRLINES, ALL_AIRLINES, OTA_COMPARISON } from "../domain/airline.js";
import { viewMembers } from "../envelope/view-members.js";

/**
 * The request body of `POST /ConsultaAereo/Consultar` as zod schemas: one schema per member, shared by the
 * validator (`parseSearchRequest`) and by the OpenAPI document. Rules that need context (today's date,
 * the airport directory) or several members at once live in the validator.
 */

/** Companhia values the service accepts: all airlines, all OTAs, or one airline id. */
export const COMPANHIA_VALUES: readonly [number, ...number[]] = [ALL_AIRLINES, OTA_COMPARISON, ...AIRLINES.map((a) => a.id)];

/** A 3-letter airport code as a client may send it (any case). */
export const AirportCodeInputSchema = z.string().regex(/^[A-Za-z]{3}$/);
/** A real calendar date `YYYY-MM-DD`. */
export const RequestDateSchema = z.iso.date();
/** `Adultos`: 1 to 9. */
export const AdultosSchema = z.int().min(1).max(9);
/** `Criancas` / `Bebes`: a count (the upper bounds depend on `Adultos`). */
export const PassengerCountSchema = z.int().min(0).max(9);
/** `Companhia`: -1 (all airlines), 1300 (all OTAs) or a single-airline id. */
export const CompanhiaSchema = z.literal(COMPANHIA_VALUES);
/** `NumeroPagina`: 1 or more. */
export const NumeroPaginaSchema = z.int().min(1);
/** `QuantidadePorPagina`: 1 to 100. */
export const QuantidadePorPaginaSchema = z.int().min(1).max(100);
/** `Token` / `LeaseId`: the id of a running search. */
export const SearchIdSchema = z.string().trim().min(1);

const pagingMembers = {
  NumeroPagina: NumeroPaginaSchema.nullable()
    .optional()
    .meta({ description: "Página pedida (Modo A). Padrão 1; além da última, flights vem vazio.", default: 1 }),
  QuantidadePorPagina: QuantidadePorPaginaSchema.nullable()
    .optional()
    .meta({ description: "Grupos de preço por página (Modo A), de 1 a 100. Padrão 10.", default: 10 }),
  ...viewMembers,
};

/**
 * The search request (spec 2.1, with the rules of decisions.md). Keys are case-insensitive and `Crianças`
 * is accepted for `Criancas`; unknown keys are ignored. `null` means absent.
 */
export const SearchRequestSchema = z
  .looseObject({
    Origem: AirportCodeInputSchema.meta({ description: "Aeroporto de partida (IATA, 3 letras). Obrigatório.", examples: ["CNF"] }),
    Destino: AirportCodeInputSchema.meta({ description: "Aeroporto de chegada (IATA), diferente de Origem. Obrigatório.", examples: ["GIG"] }),
    Ida: RequestDateSchema.meta({ description: "Data de ida (AAAA-MM-DD), de hoje (horário de São Paulo) até 365 dias à frente." }),
    Volta: RequestDateSchema.nullable()
      .optional()
      .meta({ description: "Data de volta (AAAA-MM-DD), no mesmo dia de Ida ou depois. Ausente: só ida." }),
    Adultos: AdultosSchema.nullable().optional().meta({ description: "Adultos, de 1 a 9. Padrão 1.", default: 1 }),
    Criancas: PassengerCountSchema.nullable()
      .optional()
      .meta({ description: "Crianças (também aceito como Crianças). Adultos + Criancas no máximo 9. Padrão 0.", default: 0 }),
    Bebes: PassengerCountSchema.nullable().optional().meta({ description: "Bebês, no máximo um por adulto. Padrão 0.", default: 0 }),
    Companhia: CompanhiaSchema.nullable()
      .optional()
      .meta({
        description:
          "-1, null ou ausente: todas as companhias (Modo A). 1300: comparação entre agências (Modo B). " +
          "1 LATAM, 2 GOL, 3 Azul, 11 TAP, 13 Copa, 22 American Airlines, 26 Iberia: uma só companhia.",
        default: ALL_AIRLINES,
      }),
    ...pagingMembers,
  })
  .meta({ id: "ConsultaAereoRequest", description: "Corpo da busca de voos. Nomes de campos sem distinção de maiúsculas." });

/** A poll of a running search: its id as `Token` (or `LeaseId`, the synonym real clients send) plus paging. */
export const PollRequestSchema = z
  .looseObject({
    Token: SearchIdSchema.optional().meta({ description: "Id da busca, do Token da resposta anterior." }),
    LeaseId: SearchIdSchema.optional().meta({ description: "Sinônimo de Token (ExErro.Extensions.LeaseId)." }),
    ...pagingMembers,
  })
  .meta({ id: "ConsultaAereoPoll", description: "Nova consulta de uma busca em andamento, pelo seu id." });

/** Any body `POST /ConsultaAereo/Consultar` accepts: a search or a poll. */
export const ConsultarBodySchema = z.union([PollRequestSchema, SearchRequestSchema]);
