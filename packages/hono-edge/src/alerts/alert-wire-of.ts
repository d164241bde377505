import { ALERT_KIND_WIRE, companhiaOf, toDecimal, todayInSaoPaulo, type WireAlert, type WireDelivery } from "@voar/core";
import type { AlertRecord, DeliveryRecord, TenantSecret } from "./alert-record.js";
import { wireAirline } from "./alert-evaluation.js";

const iso = (ms: number): string => new Date(ms).toISOString();

/** A watch as the API answers it; `now` decides whether it is still active and which of its days are still ahead. */
export const toWireAlert = (w: AlertRecord, now: number): WireAlert => {
  const { spec } = w;
  const p = spec.query.passengers;
  const today = todayInSaoPaulo(new Date(now));
  return {
    Id: w.id,
    Estado: w.expiresAt > now ? "ativo" : "expirado",
    Origem: spec.query.origin,
    Destino: spec.query.destination,
    Dias: spec.days.filter((d) => d >= today),
    Janela:
      spec.window.kind === "day"
        ? { Tipo: "dia" }
        : spec.window.kind === "flexible"
          ? { Tipo: "flexivel", DiasFlexiveis: spec.window.days }
          : { Tipo: "mes", Mes: spec.window.month },
    Adultos: p.adults,
    Criancas: p.children,
    Bebes: p.infants,
    Companhia: companhiaOf(spec.query.mode),
    Cabine: spec.cabin ?? null,
    Tipo: ALERT_KIND_WIRE[spec.kind],
    TetoValor: spec.ceilingCash === undefined ? null : spec.ceilingCash / 100,
    TetoPontos: spec.ceilingPoints ?? null,
    ExpiraEm: spec.expiresOn,
    Webhook: spec.webhook ?? null,
    Referencia: spec.reference ?? null,
    CriadoEm: iso(w.createdAt),
    MenorValor: w.lowCash ? { Valor: toDecimal({ amount: w.lowCash.amount, currency: "BRL" }), Dia: w.lowCash.day, Companhia: wireAirline(w.lowCash.airlineId, w.lowCash.carrier) } : null,
    MenorPontos: w.lowPoints
      ? { Pontos: w.lowPoints.points, Taxas: w.lowPoints.taxes / 100, Programa: w.lowPoints.programme, Dia: w.lowPoints.day, Companhia: wireAirline(w.lowPoints.airlineId, w.lowPoints.carrier) }
      : null,
    UltimoAvisoValor: w.notifiedCash === undefined ? null : w.notifiedCash / 100,
    UltimoAvisoPontos: w.notifiedPoints ?? null,
    Verificacoes: w.checks,
    UltimaVerificacao: w.lastCheckedAt === undefined ? null : iso(w.lastCheckedAt),
    Avisos: w.fired,
  };
};

/** A delivery as the API answers it. */
export const toWireDelivery = (d: DeliveryRecord): WireDelivery => ({
  Id: d.id,
  Dia: d.event.data.Dia,
  Estado: d.state === "pending" ? "pendente" : d.state === "delivered" ? "entregue" : "falhou",
  CriadaEm: iso(d.createdAt),
  EntregueEm: d.deliveredAt === undefined ? null : iso(d.deliveredAt),
  ProximaTentativa: d.nextAttemptAt === undefined || d.state !== "pending" ? null : iso(d.nextAttemptAt),
  Tentativas: d.attempts.map((a) => ({ Em: iso(a.at), Status: a.status ?? null, Erro: a.error ?? null, DuracaoMs: a.ms })),
  Evento: d.event,
});

/** A tenant's secret as the API answers it. */
export const toWireSecret = (s: TenantSecret, now: number) => {
  const previous = s.previous !== undefined && (s.previousUntil ?? 0) > now;
  return { Segredo: s.current, Anterior: previous ? s.previous! : null, AnteriorValidoAte: previous ? iso(s.previousUntil!) : null };
};
