import * as z from "zod";
import { airlineById } from "../domain/airline.js";
import type { Carrier } from "../domain/itinerary.js";
import { ExErroSchema, successEnvelope } from "../envelope/envelope.js";
import { toWireProgress, WireSourceProgressSchema } from "../envelope/progress.js";
import { CountSchema, DecimalAmountSchema, wireAmount } from "../envelope/scalars.js";
import type { CalendarDay, CalendarDayState, CalendarSnapshot } from "./calendar-snapshot.js";

/** A day's date on the wire. */
const WireDateSchema = z.iso.date();

/** The airline of a day's cheapest fare. */
export const CalendarAirlineSchema = z
  .strictObject({
    Id: CountSchema.meta({ description: "Id da companhia (Companhia: 1 LATAM, 2 GOL, 3 Azul...; 34 Livelo); 0 quando não é uma delas." }),
    Iata: z.string().meta({ description: "Código IATA da companhia que valida a tarifa (vazio para um programa de pontos)." }),
    Nome: z.string(),
  })
  .meta({ id: "CompanhiaCalendario" });

/** Where a day stands on the wire. */
export const CalendarDayStateSchema = z.enum(["aguardando", "buscando", "concluido"]);

/** One day of a calendar answer (element of `Data`). */
export const CalendarDaySchema = z
  .strictObject({
    Data: WireDateSchema.meta({ description: "Data de ida deste dia (AAAA-MM-DD)." }),
    Volta: WireDateSchema.optional().meta({ description: "Data de volta deste dia, mantida a estadia pedida (só numa ida e volta)." }),
    DiaPedido: z.boolean().meta({ description: "true no dia pedido em Ida." }),
    Estado: CalendarDayStateSchema.meta({ description: "aguardando (ainda não buscado), buscando ou concluido." }),
    Completed: z.boolean().meta({ description: "true quando a busca deste dia terminou (ou o dia não pôde ser buscado: veja Erro e Fontes)." }),
    MenorValor: DecimalAmountSchema.nullable().meta({ description: "Menor tarifa em dinheiro (BRL) para os passageiros pedidos, com taxas; null sem tarifa em dinheiro (até agora)." }),
    CiaMenorValor: CalendarAirlineSchema.nullable(),
    MenorPontos: CountSchema.nullable().meta({ description: "Menos pontos para os passageiros pedidos (ida e volta somadas); null sem tarifa em pontos (até agora)." }),
    TaxasMenorPontos: DecimalAmountSchema.nullable().meta({ description: "Taxas pagas em dinheiro (BRL) junto com MenorPontos." }),
    CiaMenorPontos: CalendarAirlineSchema.nullable(),
    ProgramaMenorPontos: z.string().nullable().meta({ description: "Programa de fidelidade dos pontos (Smiles, LATAM Pass, Livelo...)." }),
    TokenBusca: z.string().nullable().meta({ description: "Token da busca comum deste dia: Consultar { Token } abre os resultados completos. null antes de começar." }),
    Fontes: z.array(WireSourceProgressSchema).meta({ description: "Andamento da busca deste dia, fonte a fonte: por que um dia ficou sem preço." }),
    Erro: z.string().optional().meta({ description: "Por que o dia não pôde ser buscado (frase em pt-BR); só nesse caso." }),
    LeaseId: z.string().optional().meta({ description: "No primeiro dia, enquanto Completed é false: o id do calendário (clientes legados)." }),
  })
  .meta({ id: "DiaCalendario" });

/** `Progresso` of a calendar answer. */
export const CalendarProgressSchema = z
  .strictObject({
    Versao: CountSchema.meta({ description: "Cresce a cada mudança do calendário." }),
    DiasTotal: CountSchema,
    DiasConcluidos: CountSchema,
    ProximaConsultaMs: CountSchema.meta({ description: "Sugestão de espera, em ms, antes de repetir a consulta." }),
  })
  .meta({ id: "ProgressoCalendario" });

/** A success answer of `POST /ConsultaAereo/Calendario`. */
export const CalendarEnvelopeSchema = z
  .strictObject({
    TotalItens: CountSchema.meta({ description: "Dias do calendário." }),
    Completed: z.boolean().meta({ description: "false: algum dia ainda está sendo buscado; repita com { Token }. true: todos concluídos." }),
    Success: z.literal(true),
    HasResult: z.boolean().meta({ description: "Se algum dia já tem preço." }),
    Erro: z.null(),
    MensagemErro: z.null(),
    Token: z.string().meta({ description: "Id do calendário: envie { Token } para consultar de novo." }),
    RequestId: z.string(),
    Data: z.array(CalendarDaySchema),
    Progresso: CalendarProgressSchema,
    ExErro: ExErroSchema,
  })
  .meta({ id: "RespostaCalendario", description: "Calendário de preços: um item por dia, em ordem de data." });

/** A calendar answer as written. */
export type CalendarEnvelope = z.infer<typeof CalendarEnvelopeSchema>;
/** A day of a calendar answer as written. */
export type WireCalendarDay = z.infer<typeof CalendarDaySchema>;

const ESTADO: { readonly [S in CalendarDayState]: z.infer<typeof CalendarDayStateSchema> } = {
  waiting: "aguardando",
  searching: "buscando",
  completed: "concluido",
};

const airlineOf = (airlineId: number, carrier: Carrier): z.infer<typeof CalendarAirlineSchema> => ({
  Id: airlineId,
  Iata: carrier.iata,
  Nome: airlineById(airlineId)?.name ?? carrier.name,
});

/** One day as the wire writes it. */
export const toWireCalendarDay = (d: CalendarDay): WireCalendarDay => ({
  Data: d.query.departureDate,
  ...(d.query.returnDate === undefined ? {} : { Volta: d.query.returnDate }),
  DiaPedido: d.asked,
  Estado: ESTADO[d.state],
  Completed: d.state === "completed",
  MenorValor: d.cash ? wireAmount(d.cash.total) : null,
  CiaMenorValor: d.cash ? airlineOf(d.cash.airlineId, d.cash.carrier) : null,
  MenorPontos: d.miles ? d.miles.points : null,
  TaxasMenorPontos: d.miles ? wireAmount(d.miles.taxes) : null,
  CiaMenorPontos: d.miles ? airlineOf(d.miles.airlineId, d.miles.carrier) : null,
  ProgramaMenorPontos: d.miles ? d.miles.programme : null,
  TokenBusca: d.searchId ?? null,
  Fontes: toWireProgress(0, d.sources, 0).Fontes,
  ...(d.failure === undefined ? {} : { Erro: d.failure }),
});

/** Options of {@link calendarToEnvelope}. */
export interface CalendarEnvelopeOptions {
  /** The calendar's id (`Token`). */
  readonly calendarId: string;
  readonly requestId: string;
  /** `Progresso.ProximaConsultaMs` while the calendar runs. */
  readonly nextPollMs: number;
}

/**
 * Writes a calendar snapshot as the answer of `POST /ConsultaAereo/Calendario`: the usual success envelope
 * (`TotalItens` = days, `Token` = the calendar's id) whose `Data` holds one entry per day in date order, each
 * with its cheapest cash and award fares, the airline of each and `TokenBusca`, the Token of that day's
 * ordinary search. While it runs, the id also goes in `ExErro.Extensions.LeaseId` and `Data[0].LeaseId`, as
 * in a search's answer.
 *
 * @example
 * const body = calendarToEnvelope(snapshot, { calendarId, requestId, nextPollMs: 500 });
 */
export const calendarToEnvelope = (c: CalendarSnapshot, o: CalendarEnvelopeOptions): CalendarEnvelope => {
  const envelope = successEnvelope({ data: c.days.map(toWireCalendarDay), totalItems: c.days.length, token: o.calendarId, completed: c.completed, requestId: o.requestId });
  return {
    ...envelope,
    HasResult: c.days.some((d) => d.cash !== undefined || d.miles !== undefined),
    Token: o.calendarId,
    Progresso: {
      Versao: c.version,
      DiasTotal: c.days.length,
      DiasConcluidos: c.days.filter((d) => d.state === "completed").length,
      ProximaConsultaMs: c.completed ? 0 : Math.max(0, Math.round(o.nextPollMs)),
    },
  };
};
