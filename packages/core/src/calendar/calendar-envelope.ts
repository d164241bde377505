import * as z from "zod";
import { airlineById } from "../domain/airline.js";
import type { Carrier } from "../domain/itinerary.js";
import { ExErroSchema, successEnvelope } from "../envelope/envelope.js";
import { toWireProgress, WireSourceProgressSchema } from "../envelope/progress.js";
import { CountSchema, DecimalAmountSchema, wireAmount } from "../envelope/scalars.js";
import { daySettled, type CalendarDay, type CalendarDayState, type CalendarSnapshot } from "./calendar-snapshot.js";

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
export const CalendarDayStateSchema = z.enum(["aguardando", "buscando", "concluido", "expirado"]);

/** One day of a calendar answer (element of `Data`). */
export const CalendarDaySchema = z
  .strictObject({
    Data: WireDateSchema.meta({ description: "Data de ida deste dia (AAAA-MM-DD)." }),
    Volta: WireDateSchema.optional().meta({ description: "Data de volta deste dia, mantida a estadia pedida (só numa ida e volta)." }),
    DiaPedido: z.boolean().meta({ description: "true no dia pedido em Ida." }),
    Estado: CalendarDayStateSchema.meta({
      description: "aguardando (ainda não buscado), buscando, concluido, ou expirado: os preços deste dia deixaram de valer (sem preço; a próxima consulta do calendário busca o dia de novo).",
    }),
    Completed: z.boolean().meta({ description: "true quando a busca deste dia terminou (ou o dia não pôde ser buscado: veja Erro e Fontes), ou o dia expirou." }),
    MenorValor: DecimalAmountSchema.nullable().meta({ description: "Menor tarifa em dinheiro (BRL) para os passageiros pedidos, com taxas; null sem tarifa em dinheiro (até agora)." }),
    CiaMenorValor: CalendarAirlineSchema.nullable(),
    MenorPontos: CountSchema.nullable().meta({ description: "Menos pontos para os passageiros pedidos (ida e volta somadas); null sem tarifa em pontos (até agora)." }),
    TaxasMenorPontos: DecimalAmountSchema.nullable().meta({ description: "Taxas pagas em dinheiro (BRL) junto com MenorPontos." }),
    CiaMenorPontos: CalendarAirlineSchema.nullable(),
    ProgramaMenorPontos: z.string().nullable().meta({ description: "Programa de fidelidade dos pontos (Smiles, LATAM Pass, Livelo...)." }),
    ValidoAte: z.iso.datetime().optional().meta({
      description: "Até quando os preços deste dia valem (UTC): a oferta da busca do dia que deixa de valer primeiro. Só com preço, quando a fonte diz; nenhuma resposta traz um preço depois dele.",
      examples: ["2026-09-01T12:10:00.000Z"],
    }),
    TokenBusca: z.string().nullable().meta({ description: "Token da busca comum deste dia: Consultar { Token } abre os resultados completos. null antes de começar (e num dia expirado)." }),
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
  expired: "expirado",
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
  Completed: daySettled(d),
  MenorValor: d.cash ? wireAmount(d.cash.total) : null,
  CiaMenorValor: d.cash ? airlineOf(d.cash.airlineId, d.cash.carrier) : null,
  MenorPontos: d.miles ? d.miles.points : null,
  TaxasMenorPontos: d.miles ? wireAmount(d.miles.taxes) : null,
  CiaMenorPontos: d.miles ? airlineOf(d.miles.airlineId, d.miles.carrier) : null,
  ProgramaMenorPontos: d.miles ? d.miles.programme : null,
  ...((d.cash || d.miles) && d.validUntil !== undefined ? { ValidoAte: new Date(d.validUntil).toISOString() } : {}),
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
      DiasConcluidos: c.days.filter(daySettled).length,
      ProximaConsultaMs: c.completed ? 0 : Math.max(0, Math.round(o.nextPollMs)),
    },
  };
};

/**
 * An event of the calendar's SSE stream between two full answers (`event: dias`): the days that changed since
 * the stream's previous event, each whole, with the calendar's progress and completion. A client keeps the
 * full answer it received first (on connecting or resuming) and applies each change to it
 * ({@link applyCalendarChange}); a ±3 calendar's stream is then a few days' worth of bytes per change
 * instead of the whole calendar at every one.
 */
export const CalendarChangeSchema = z
  .strictObject({
    Token: z.string().meta({ description: "Id do calendário." }),
    Completed: z.boolean(),
    HasResult: z.boolean(),
    Progresso: CalendarProgressSchema,
    Data: z.array(CalendarDaySchema).meta({ description: "Só os dias que mudaram desde o evento anterior, cada um inteiro; substituem os dias da mesma data (Data e Volta)." }),
  })
  .meta({ id: "MudancaCalendario", description: "Evento dias do fluxo do calendário: os dias que mudaram desde o evento anterior." });

/** A change of a calendar's stream as written. */
export type CalendarChange = z.infer<typeof CalendarChangeSchema>;

const dayKey = (d: Pick<WireCalendarDay, "Data" | "Volta">): string => `${d.Data}|${d.Volta ?? ""}`;

/**
 * A calendar answer with a change of its stream applied: the changed days replace the days of the same date
 * (and return), progress and completion are the change's. A change naming a day the answer lacks adds it in
 * date order.
 *
 * @example
 * let calendar: CalendarEnvelope = first; // the stream's first event (a full answer)
 * calendar = applyCalendarChange(calendar, change); // each `dias` event after it
 */
export const applyCalendarChange = (e: CalendarEnvelope, c: CalendarChange): CalendarEnvelope => {
  const byKey = new Map(e.Data.map((d) => [dayKey(d), withoutLease(d)]));
  for (const d of c.Data) byKey.set(dayKey(d), withoutLease(d));
  const data = [...byKey.values()].sort((a, b) => (dayKey(a) < dayKey(b) ? -1 : dayKey(a) > dayKey(b) ? 1 : 0));
  // While the calendar runs its id rides on the first day and in `ExErro`, as in a polling answer.
  const lease = c.Completed ? undefined : e.ExErro?.Extensions.LeaseId;
  if (lease !== undefined && data[0]) data[0] = { ...data[0], LeaseId: lease };
  return { ...e, Data: data, TotalItens: data.length, Completed: c.Completed, HasResult: c.HasResult, Progresso: c.Progresso, ExErro: lease === undefined ? null : e.ExErro };
};

const withoutLease = (d: WireCalendarDay): WireCalendarDay => {
  if (d.LeaseId === undefined) return d;
  const { LeaseId: _lease, ...rest } = d;
  return rest;
};
