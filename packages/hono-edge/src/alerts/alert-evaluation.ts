import { airlineById, ALERT_KIND_WIRE, companhiaOf, decideLow, toDecimal, type AlertEvent, type Carrier, type DayCashPrice, type DayMilesPrice } from "@voar/core";
import type { AlertRecord, UnitResult } from "./alert-record.js";

/**
 * One check of a day applied to one watch of it: its lows and last alerts move by core's rule (`decideLow`),
 * per currency it asks for and in its cabin, and what fired becomes the alert's body.
 */

/** What fired for a watch on one day. */
export interface Fired {
  readonly cash?: { readonly price: DayCashPrice; readonly previousLow: number | undefined } | undefined;
  readonly miles?: { readonly price: DayMilesPrice; readonly previousLow: number | undefined } | undefined;
}

/** A watch after a check of one of its days, and what fired (empty when nothing did). */
export const evaluateDay = (w: AlertRecord, day: string, result: UnitResult): { readonly next: AlertRecord; readonly fired: Fired } => {
  const prices = result.prices[w.spec.cabin ?? "todas"];
  let next: AlertRecord = { ...w, checks: w.checks + 1, lastCheckedAt: result.at };
  let fired: Fired = {};
  const cash = w.spec.kind !== "miles" ? prices?.cash : undefined;
  if (cash) {
    const d = decideLow({ low: w.lowCash?.amount, notified: w.notifiedCash }, cash.total.amount, w.spec.ceilingCash);
    const lower = w.lowCash === undefined || cash.total.amount < w.lowCash.amount;
    next = {
      ...next,
      notifiedCash: d.next.notified,
      ...(lower ? { lowCash: { amount: cash.total.amount, day, airlineId: cash.airlineId, carrier: cash.carrier } } : {}),
    };
    if (d.fire) fired = { ...fired, cash: { price: cash, previousLow: d.previousLow } };
  }
  const miles = w.spec.kind !== "cash" ? prices?.miles : undefined;
  if (miles) {
    const d = decideLow({ low: w.lowPoints?.points, notified: w.notifiedPoints }, miles.points, w.spec.ceilingPoints);
    const lower = w.lowPoints === undefined || miles.points < w.lowPoints.points;
    next = {
      ...next,
      notifiedPoints: d.next.notified,
      ...(lower ? { lowPoints: { points: miles.points, taxes: miles.taxes.amount, programme: miles.programme, day, airlineId: miles.airlineId, carrier: miles.carrier } } : {}),
    };
    if (d.fire) fired = { ...fired, miles: { price: miles, previousLow: d.previousLow } };
  }
  const count = (fired.cash ? 1 : 0) + (fired.miles ? 1 : 0);
  return { next: count > 0 ? { ...next, fired: next.fired + 1 } : next, fired };
};

/** Whether anything fired. */
export const anyFired = (f: Fired): boolean => f.cash !== undefined || f.miles !== undefined;

/** The wire's airline of a price. */
export const wireAirline = (airlineId: number, carrier: Carrier) => ({ Id: airlineId, Iata: carrier.iata, Nome: airlineById(airlineId)?.name ?? carrier.name });

/** The alert's body: what the webhook posts and the stream sends. */
export const alertEventOf = (w: AlertRecord, day: string, fired: Fired, o: { readonly id: string; readonly token: string | undefined; readonly at: number }): AlertEvent => {
  const p = w.spec.query.passengers;
  const at = new Date(o.at).toISOString();
  return {
    type: "alerta.preco_baixou",
    timestamp: at,
    data: {
      Id: o.id,
      AlertaId: w.id,
      Referencia: w.spec.reference ?? null,
      Origem: w.spec.query.origin,
      Destino: w.spec.query.destination,
      Dia: day,
      Adultos: p.adults,
      Criancas: p.children,
      Bebes: p.infants,
      Companhia: companhiaOf(w.spec.query.mode),
      Cabine: w.spec.cabin ?? null,
      Motivo: [...(fired.cash ? (["dinheiro"] as const) : []), ...(fired.miles ? (["milhas"] as const) : [])],
      Valor: fired.cash
        ? {
            Atual: toDecimal(fired.cash.price.total),
            AnteriorMinimo: fired.cash.previousLow === undefined ? null : fired.cash.previousLow / 100,
            Teto: w.spec.ceilingCash === undefined ? null : w.spec.ceilingCash / 100,
            Companhia: wireAirline(fired.cash.price.airlineId, fired.cash.price.carrier),
          }
        : null,
      Pontos: fired.miles
        ? {
            Atual: fired.miles.price.points,
            Taxas: toDecimal(fired.miles.price.taxes),
            Programa: fired.miles.price.programme,
            AnteriorMinimo: fired.miles.previousLow ?? null,
            Teto: w.spec.ceilingPoints ?? null,
            Companhia: wireAirline(fired.miles.price.airlineId, fired.miles.price.carrier),
          }
        : null,
      TokenBusca: o.token ?? null,
      VerificadoEm: at,
    },
  };
};

/** `Tipo` of a watch on the wire. */
export const kindWire = (w: AlertRecord) => ALERT_KIND_WIRE[w.spec.kind];
