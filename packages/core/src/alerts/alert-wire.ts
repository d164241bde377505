import * as z from "zod";
import { CountSchema, DecimalAmountSchema, IataCodeSchema } from "../envelope/scalars.js";
import { CalendarAirlineSchema } from "../calendar/calendar-envelope.js";
import { CABINS } from "./alert-cabin.js";

/**
 * The price watches on the wire: a watch (`Alerta`), its deliveries (`Entrega`), the alert a watch sends
 * (`AlertaEvento`: the webhook's body and the stream's event), and the answers of `/Alertas` in the API's
 * success envelope.
 */

const Instant = z.iso.datetime({ offset: true }).meta({ description: "Instante ISO 8601 (UTC)." });
const Day = z.iso.date();

/** The lowest cash price a watch has seen. */
export const AlertLowCashSchema = z
  .strictObject({
    Valor: DecimalAmountSchema.meta({ description: "Total em reais para os passageiros pedidos, com taxas." }),
    Dia: Day,
    Companhia: CalendarAirlineSchema,
  })
  .meta({ id: "AlertaMenorValor" });

/** The fewest points a watch has seen. */
export const AlertLowPointsSchema = z
  .strictObject({
    Pontos: CountSchema.meta({ description: "Pontos para os passageiros pedidos." }),
    Taxas: DecimalAmountSchema.meta({ description: "Taxas em reais pagas junto com os pontos." }),
    Programa: z.string(),
    Dia: Day,
    Companhia: CalendarAirlineSchema,
  })
  .meta({ id: "AlertaMenorPontos" });

/** A price watch as the API answers it. */
export const AlertSchema = z
  .strictObject({
    Id: z.string(),
    Estado: z.enum(["ativo", "expirado"]).meta({ description: "ativo: verificado no seu horário; expirado: passou de ExpiraEm ou do último dia." }),
    Origem: IataCodeSchema,
    Destino: IataCodeSchema,
    Dias: z.array(Day).meta({ description: "Cada dia de ida acompanhado (os que já passaram saem)." }),
    Janela: z.strictObject({ Tipo: z.enum(["dia", "flexivel", "mes"]), DiasFlexiveis: CountSchema.optional(), Mes: z.string().optional() }),
    Adultos: CountSchema,
    Criancas: CountSchema,
    Bebes: CountSchema,
    Companhia: z.int(),
    Cabine: z.enum(CABINS).nullable(),
    Tipo: z.enum(["dinheiro", "milhas", "ambos"]),
    TetoValor: DecimalAmountSchema.nullable(),
    TetoPontos: CountSchema.nullable(),
    ExpiraEm: Day,
    Webhook: z.string().nullable(),
    Referencia: z.string().nullable(),
    CriadoEm: Instant,
    MenorValor: AlertLowCashSchema.nullable().meta({ description: "Menor tarifa em dinheiro vista desde a criação." }),
    MenorPontos: AlertLowPointsSchema.nullable().meta({ description: "Tarifa de menos pontos vista desde a criação." }),
    UltimoAvisoValor: DecimalAmountSchema.nullable().meta({ description: "Valor do último aviso em dinheiro: o próximo só abaixo dele." }),
    UltimoAvisoPontos: CountSchema.nullable().meta({ description: "Pontos do último aviso em milhas: o próximo só abaixo deles." }),
    Verificacoes: CountSchema.meta({ description: "Verificações de dias deste alerta (compartilhadas com outros alertas da mesma rota e dia)." }),
    UltimaVerificacao: Instant.nullable(),
    Avisos: CountSchema.meta({ description: "Avisos enviados." }),
  })
  .meta({ id: "Alerta", description: "Um alerta de preço e o que ele já viu." });

/** The alert a watch sends: the webhook's body (`data` of it) and the stream's event. */
export const AlertEventDataSchema = z
  .strictObject({
    Id: z.string().meta({ description: "Id do aviso, o mesmo do cabeçalho webhook-id: chave de idempotência (um aviso pode chegar mais de uma vez)." }),
    AlertaId: z.string(),
    Referencia: z.string().nullable(),
    Origem: IataCodeSchema,
    Destino: IataCodeSchema,
    Dia: Day.meta({ description: "O dia de ida cujo preço baixou." }),
    Adultos: CountSchema,
    Criancas: CountSchema,
    Bebes: CountSchema,
    Companhia: z.int(),
    Cabine: z.enum(CABINS).nullable(),
    Motivo: z.array(z.enum(["dinheiro", "milhas"])).min(1).meta({ description: "O que baixou: dinheiro, milhas ou os dois." }),
    Valor: z
      .strictObject({
        Atual: DecimalAmountSchema.meta({ description: "A menor tarifa em dinheiro agora (reais, todos os passageiros, com taxas)." }),
        AnteriorMinimo: DecimalAmountSchema.nullable().meta({ description: "A menor vista antes desta; null na primeira." }),
        Teto: DecimalAmountSchema.nullable(),
        Companhia: CalendarAirlineSchema,
      })
      .nullable(),
    Pontos: z
      .strictObject({
        Atual: CountSchema,
        Taxas: DecimalAmountSchema,
        Programa: z.string(),
        AnteriorMinimo: CountSchema.nullable(),
        Teto: CountSchema.nullable(),
        Companhia: CalendarAirlineSchema,
      })
      .nullable(),
    TokenBusca: z.string().nullable().meta({ description: "Token de uma busca deste dia, sua: Consultar { Token } abre os resultados (enquanto ela é guardada, 10 min por padrão)." }),
    VerificadoEm: Instant,
  })
  .meta({ id: "AlertaEventoDados" });

/** The body of an alert's webhook (Standard Webhooks' `type`, `timestamp`, `data`). */
export const AlertEventSchema = z
  .strictObject({
    type: z.literal("alerta.preco_baixou"),
    timestamp: Instant,
    data: AlertEventDataSchema,
  })
  .meta({ id: "AlertaEvento", description: "O aviso de um alerta: corpo do webhook e dado de cada evento do fluxo." });

/** One try of a delivery. */
export const DeliveryAttemptSchema = z
  .strictObject({
    Em: Instant,
    Status: z.int().nullable().meta({ description: "Status HTTP da resposta; null sem resposta (rede, tempo esgotado, endereço recusado)." }),
    Erro: z.string().nullable(),
    DuracaoMs: CountSchema,
  })
  .meta({ id: "TentativaEntrega" });

/** A delivery of an alert to its webhook. */
export const DeliverySchema = z
  .strictObject({
    Id: z.string().meta({ description: "webhook-id: o mesmo em cada tentativa." }),
    Dia: Day,
    Estado: z.enum(["pendente", "entregue", "falhou"]).meta({ description: "pendente: tentando (com espera crescente); entregue: 2xx; falhou: sem sucesso em 24 h (ou 410)." }),
    CriadaEm: Instant,
    EntregueEm: Instant.nullable(),
    ProximaTentativa: Instant.nullable(),
    Tentativas: z.array(DeliveryAttemptSchema),
    Evento: AlertEventSchema,
  })
  .meta({ id: "Entrega" });

/** The webhook secret of a tenant (`/Alertas/Segredo`). */
export const WebhookSecretSchema = z
  .strictObject({
    Segredo: z.string().meta({ description: "whsec_<base64>: a chave HMAC-SHA256 dos avisos (Standard Webhooks)." }),
    Anterior: z.string().nullable().meta({ description: "O segredo anterior, que ainda assina os avisos até AnteriorValidoAte (troca sem perder avisos)." }),
    AnteriorValidoAte: Instant.nullable(),
  })
  .meta({ id: "SegredoWebhook" });

const envelopeOf = <T extends z.ZodType>(data: T, id: string, description: string) =>
  z
    .strictObject({
      TotalItens: CountSchema,
      Completed: z.literal(true),
      Success: z.literal(true),
      HasResult: z.boolean(),
      Erro: z.null(),
      MensagemErro: z.null(),
      Data: z.array(data),
      Token: z.null(),
      RequestId: z.string(),
      ExErro: z.null(),
    })
    .meta({ id, description });

/** An answer of `/Alertas` and `/Alertas/{id}`: watches in `Data`. */
export const AlertEnvelopeSchema = envelopeOf(AlertSchema, "RespostaAlertas", "Alertas (um, ou a lista do seu token).");
/** An answer of `/Alertas/{id}/Entregas`: the deliveries, newest first. */
export const DeliveryEnvelopeSchema = envelopeOf(DeliverySchema, "RespostaEntregas", "Entregas de um alerta, da mais nova à mais antiga.");
/** An answer of `/Alertas/Segredo`. */
export const WebhookSecretEnvelopeSchema = envelopeOf(WebhookSecretSchema, "RespostaSegredo", "O segredo dos webhooks do seu token.");

export type WireAlert = z.infer<typeof AlertSchema>;
export type AlertEvent = z.infer<typeof AlertEventSchema>;
export type WireDelivery = z.infer<typeof DeliverySchema>;
export type AlertEnvelope = z.infer<typeof AlertEnvelopeSchema>;
export type DeliveryEnvelope = z.infer<typeof DeliveryEnvelopeSchema>;
export type WebhookSecretEnvelope = z.infer<typeof WebhookSecretEnvelopeSchema>;

/** The answer envelope of a list of items (every `/Alertas` answer). */
export const listEnvelope = <D extends object>(data: readonly D[], requestId: string) => ({
  TotalItens: data.length,
  Completed: true as const,
  Success: true as const,
  HasResult: data.length > 0,
  Erro: null,
  MensagemErro: null,
  Data: [...data],
  Token: null,
  RequestId: requestId,
  ExErro: null,
});
