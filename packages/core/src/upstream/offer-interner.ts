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
  /** Texts kept, by the number each is known by in keys. */
  let textIds = new Map<string, number>();
  let textOf: string[] = [];
  let values = new Map<string, object>();
  let ids = new WeakMap<object, number>();
  let next = 0;
  /** Grows when the tables start over: a key built across a restart is not trusted. */
  let generation = 0;

  const ensureRoom = () => {
    if (textIds.size + values.size < limit) return;
    textIds = new Map();
    textOf = [];
    values = new Map();
    ids = new WeakMap();
    generation++;
  };

  /** The number of a text, kept from now on. */
  const tid = (s: string): number => {
    let id = textIds.get(s);
    if (id === undefined) {
      ensureRoom();
      id = textOf.length;
      textIds.set(s, id);
      textOf.push(s);
    }
    return id;
  };
  const text = (s: string): string => {
    const id = tid(s); // first: it may start the tables over (`textOf[tid(s)]` would read the old one)
    return textOf[id]!;
  };
  const maybeText = (s: string | undefined): string | undefined => (s === undefined ? undefined : text(s));
  /** A member text's part of a key (an absent one: nothing). */
  const t = (s: string | undefined): number | "" => (s === undefined ? "" : tid(s));
  /** A member value's part of a key (an absent one: nothing; one not kept: "?", which makes the key unusable). */
  const v = (o: object | undefined): number | "" | "?" => (o === undefined ? "" : (ids.get(o) ?? "?"));

  /**
   * The copy kept for a value equal to `made` (built from kept members), or `made` itself, kept from now on.
   * `key` names the value by its type and its members (texts and kept values by their numbers, which is never
   * ambiguous: numbers and empty parts between commas): built by each type below from its own fields, with no
   * walk over the object's entries. `made` as it is when a member is not kept or the tables started over while
   * it was built.
   */
  const share = <T extends object>(made: T, key: string, from: number): T => {
    if (from !== generation || key.includes("?")) return made;
    const kept = values.get(key);
    if (kept !== undefined) return kept as T;
    ensureRoom();
    if (from !== generation) return made;
    values.set(key, made);
    ids.set(made, next++);
    return made;
  };

  /** `f(v)` unless `v` is already a kept value. */
  const once = <T extends object>(x: T, f: (x: T) => T): T => (ids.has(x) ? x : f(x));

  const money = (m: Money): Money =>
    once(m, () => {
      const g = generation;
      const made = { amount: m.amount, currency: text(m.currency) };
      return share(made, `$${m.amount},${t(made.currency)}`, g);
    });
  const maybeMoney = (m: Money | undefined): Money | undefined => (m === undefined ? undefined : money(m));
  const carrier = (c: Carrier): Carrier =>
    once(c, () => {
      const g = generation;
      const made = { iata: text(c.iata), name: text(c.name) };
      return share(made, `c${t(made.iata)},${t(made.name)}`, g);
    });

  const leg = (l: Leg): Leg =>
    once(l, () => {
      const g = generation;
      const made: Leg = {
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
      };
      const key =
        `l${v(made.carrier)},${v(made.operatingCarrier)},${made.flightNumber},${t(made.designator)},${t(made.origin)},${t(made.destination)},` +
        `${t(made.departure)},${t(made.arrival)},${t(made.departureTimeZone)},${t(made.arrivalTimeZone)},${made.durationMinutes},${t(made.cabin)},${t(made.aircraft)}`;
      return share(made, key, g);
    });

  const legsOf = (legs: readonly Leg[]): readonly Leg[] =>
    once(legs, () => {
      const g = generation;
      const made = legs.map(leg);
      let key = "L";
      for (const x of made) key += `${v(x)},`;
      return share(made, key, g);
    });

  const itinerary = (it: Itinerary): Itinerary =>
    once(it, () => {
      const g = generation;
      const made: Itinerary = {
        direction: it.direction,
        legs: legsOf(it.legs),
        origin: text(it.origin),
        destination: text(it.destination),
        departure: text(it.departure),
        arrival: text(it.arrival),
        durationMinutes: it.durationMinutes,
        stops: it.stops,
      };
      const key = `i${t(made.direction)},${v(made.legs)},${t(made.origin)},${t(made.destination)},${t(made.departure)},${t(made.arrival)},${made.durationMinutes},${made.stops}`;
      return share(made, key, g);
    });

  const seller = (s: Seller): Seller =>
    once(s, () => {
      const g = generation;
      const made: Seller = { kind: s.kind, id: text(s.id), name: text(s.name), site: text(s.site), url: text(s.url), cashChildPoints: s.cashChildPoints };
      return share(made, `s${t(made.kind)},${t(made.id)},${t(made.name)},${t(made.site)},${t(made.url)},${made.cashChildPoints ?? ""}`, g);
    });

  const listed = (l: ListedFare): ListedFare =>
    once(l, () => {
      const g = generation;
      const made: ListedFare = { fare: money(l.fare), boarding: maybeMoney(l.boarding) };
      return share(made, `f${v(made.fare)},${v(made.boarding)}`, g);
    });

  const fare = (f: PassengerFare): PassengerFare =>
    once(f, () => {
      const g = generation;
      const made: PassengerFare = {
        type: f.type,
        count: f.count,
        base: money(f.base),
        taxes: money(f.taxes),
        serviceFee: maybeMoney(f.serviceFee),
        listed: f.listed === undefined ? undefined : listed(f.listed),
      };
      return share(made, `p${t(made.type)},${made.count},${v(made.base)},${v(made.taxes)},${v(made.serviceFee)},${v(made.listed)}`, g);
    });

  const faresOf = (fares: readonly PassengerFare[]): readonly PassengerFare[] =>
    once(fares, () => {
      const g = generation;
      const made = fares.map(fare);
      let key = "P";
      for (const x of made) key += `${v(x)},`;
      return share(made, key, g);
    });

  const discount = (d: SellerDiscount): SellerDiscount =>
    once(d, () => {
      const g = generation;
      const made: SellerDiscount = { percent: d.percent, amount: money(d.amount) };
      return share(made, `d${made.percent},${v(made.amount)}`, g);
    });

  const miles = (m: MilesPrice): MilesPrice =>
    once(m, () => {
      const g = generation;
      const made: MilesPrice = { pointsAdult: m.pointsAdult, pointsChild: m.pointsChild, taxes: money(m.taxes), programme: text(m.programme) };
      return share(made, `m${made.pointsAdult},${made.pointsChild},${v(made.taxes)},${t(made.programme)}`, g);
    });

  const baggage = (b: Baggage): Baggage =>
    once(b, () => {
      const g = generation;
      const made: Baggage = {
        checked: b.checked,
        checkedText: text(b.checkedText),
        cabin: b.cabin,
        cabinText: text(b.cabinText),
        bagCount: b.bagCount,
        includedCount: b.includedCount,
      };
      return share(made, `b${made.checked},${t(made.checkedText)},${made.cabin ?? ""},${t(made.cabinText)},${made.bagCount ?? ""},${made.includedCount ?? ""}`, g);
    });

  return {
    offer: (o) => ({
        id: o.id,
        flightKey: text(o.flightKey),
        sourceId: text(o.sourceId),
        airlineId: o.airlineId,
        validatingCarrier: carrier(o.validatingCarrier),
        seller: seller(o.seller),
        itinerary: itinerary(o.itinerary),
        fares: faresOf(o.fares),
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
