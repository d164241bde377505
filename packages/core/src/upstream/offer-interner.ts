/**
 * Shares what offers repeat. Every upstream answer is parsed anew, so the same texts (airports, dates,
 * sellers, their links, booking options) and the same small values (carriers, legs, prices, bags) arrive
 * as fresh copies in every offer of every poll. An interner keeps one copy of each: a text seen before
 * is answered by the copy kept, and a plain object or array whose members are all kept copies is answered
 * by the one kept for the same members (offers are immutable, so sharing is safe). It holds at most
 * `limit` entries and starts over when full, so a long search cannot grow it without end.
 *
 * Every value it answers is built as one object literal of its type (an offer, its seller, itinerary, legs,
 * carriers, fares, prices, bags), optional members present (undefined when absent): an object whose members
 * are added one by one, or by spreads, may keep only four of them within itself and the rest in a separate
 * store, up to a third more memory per object, and the offers of active searches are most of a service's
 * memory.
 */
import type { Carrier, Itinerary, Leg } from "../domain/itinerary.js";
import type { Money } from "../domain/money.js";
import type { Baggage, ListedFare, MilesPrice, Offer, PassengerFare, Seller, SellerDiscount } from "../domain/offer.js";

/** One search's (or one reader's) table of shared texts and values. */
export interface OfferInterner {
  /** The offer with its texts and nested values replaced by the copies kept (its own id and token as they are). */
  readonly offer: (offer: Offer) => Offer;
}

/** An interner holding at most `limit` texts and values (default 20,000). */
export const createOfferInterner = (limit = 20_000): OfferInterner => {
  let texts = new Map<string, string>();
  let values = new Map<string, object>();
  let ids = new WeakMap<object, number>();
  let next = 0;

  const ensureRoom = () => {
    if (texts.size + values.size < limit) return;
    texts = new Map();
    values = new Map();
    ids = new WeakMap();
  };

  const text = (s: string): string => {
    const kept = texts.get(s);
    if (kept !== undefined) return kept;
    ensureRoom();
    texts.set(s, s);
    return s;
  };
  const maybeText = (s: string | undefined): string | undefined => (s === undefined ? undefined : text(s));

  /**
   * The key of a member: a text by its length and itself (no quoting to do, never ambiguous), a kept value
   * by its number, anything else by its type and value.
   */
  const keyOf = (v: unknown): string => {
    if (typeof v === "string") return `${v.length}'${v}`;
    if (typeof v === "object" && v !== null) return `#${ids.get(v) ?? "?"}`;
    return `${typeof v}:${String(v)}`;
  };

  const isKept = (v: unknown) => typeof v !== "object" || v === null || ids.has(v);

  /**
   * The copy kept for a value equal to `made` (built from kept members), or `made` itself, kept from now on;
   * `made` as it is when a member is not kept (an offer's own value: it is not worth a key).
   */
  const share = <T extends object>(made: T): T => {
    let key = Array.isArray(made) ? "[" : "{";
    for (const [k, member] of Object.entries(made)) {
      if (!isKept(member)) return made;
      key += Array.isArray(made) ? `${keyOf(member)},` : `${k.length}'${k}:${keyOf(member)},`;
    }
    key += Array.isArray(made) ? "]" : "}";
    const kept = values.get(key);
    if (kept !== undefined) return kept as T;
    ensureRoom();
    values.set(key, made);
    ids.set(made, next++);
    return made;
  };

  /** `f(v)` unless `v` is already a kept value. */
  const once = <T extends object>(v: T, f: (v: T) => T): T => (ids.has(v) ? v : f(v));

  const money = (m: Money): Money => once(m, () => share({ amount: m.amount, currency: text(m.currency) }));
  const maybeMoney = (m: Money | undefined): Money | undefined => (m === undefined ? undefined : money(m));
  const carrier = (c: Carrier): Carrier => once(c, () => share({ iata: text(c.iata), name: text(c.name) }));

  const leg = (l: Leg): Leg =>
    once(l, () =>
      share({
        carrier: carrier(l.carrier),
        operatingCarrier: carrier(l.operatingCarrier),
        flightNumber: l.flightNumber,
        designator: maybeText(l.designator),
        origin: text(l.origin),
        destination: text(l.destination),
        departure: text(l.departure),
        arrival: text(l.arrival),
        departureTimeZone: maybeText(l.departureTimeZone),
        arrivalTimeZone: maybeText(l.arrivalTimeZone),
        durationMinutes: l.durationMinutes,
        cabin: text(l.cabin),
        aircraft: maybeText(l.aircraft),
      }),
    );

  const itinerary = (it: Itinerary): Itinerary =>
    once(it, () =>
      share({
        direction: it.direction,
        legs: once(it.legs, (legs) => share(legs.map(leg))),
        origin: text(it.origin),
        destination: text(it.destination),
        departure: text(it.departure),
        arrival: text(it.arrival),
        durationMinutes: it.durationMinutes,
        stops: it.stops,
      }),
    );

  const seller = (s: Seller): Seller =>
    once(s, () => share({ kind: s.kind, id: text(s.id), name: text(s.name), site: text(s.site), url: text(s.url), cashChildPoints: s.cashChildPoints }));

  const listed = (l: ListedFare): ListedFare => once(l, () => share({ fare: money(l.fare), boarding: maybeMoney(l.boarding) }));

  const fare = (f: PassengerFare): PassengerFare =>
    once(f, () =>
      share({
        type: f.type,
        count: f.count,
        base: money(f.base),
        taxes: money(f.taxes),
        serviceFee: maybeMoney(f.serviceFee),
        listed: f.listed === undefined ? undefined : listed(f.listed),
      }),
    );

  const discount = (d: SellerDiscount): SellerDiscount => once(d, () => share({ percent: d.percent, amount: money(d.amount) }));

  const miles = (m: MilesPrice): MilesPrice =>
    once(m, () => share({ pointsAdult: m.pointsAdult, pointsChild: m.pointsChild, taxes: money(m.taxes), programme: text(m.programme) }));

  const baggage = (b: Baggage): Baggage =>
    once(b, () =>
      share({
        checked: b.checked,
        checkedText: text(b.checkedText),
        cabin: b.cabin,
        cabinText: text(b.cabinText),
        bagCount: b.bagCount,
        includedCount: b.includedCount,
      }),
    );

  return {
    offer: (o) => ({
        id: o.id,
        flightKey: text(o.flightKey),
        sourceId: text(o.sourceId),
        airlineId: o.airlineId,
        validatingCarrier: carrier(o.validatingCarrier),
        seller: seller(o.seller),
        itinerary: itinerary(o.itinerary),
        fares: once(o.fares, (fares) => share(fares.map(fare))),
        total: money(o.total),
        taxes: money(o.taxes),
        discount: o.discount === undefined ? undefined : discount(o.discount),
        airlinePrice: money(o.airlinePrice),
        miles: o.miles === undefined ? undefined : miles(o.miles),
        cabin: text(o.cabin),
        bookingOption: text(o.bookingOption),
        fareFamily: maybeText(o.fareFamily),
        baggage: baggage(o.baggage),
        fareToken: o.fareToken,
        searchToken: text(o.searchToken),
      }),
  };
};
