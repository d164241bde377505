/**
 * Shares what offers repeat. Every upstream answer is parsed anew, so the same texts (airports, dates,
 * sellers, their links, booking options) and the same small values (carriers, legs, prices, bags) arrive
 * as fresh copies in every offer of every poll. An interner keeps one copy of each: a text seen before
 * is answered by the copy kept, and a plain object or array whose members are all kept copies is answered
 * by the one kept for the same members (offers are immutable, so sharing is safe). It holds at most
 * `limit` entries and starts over when full, so a long search cannot grow it without end.
 */
import type { Offer } from "../../domain/offer.js";

/** One search's (or one reader's) table of shared texts and values. */
export interface OfferInterner {
  /** The offer with its texts and nested values replaced by the copies kept (its own id and token as they are). */
  readonly offer: (offer: Offer) => Offer;
}

/** Members of an offer that are its own and never repeat: not worth keeping. */
const OWN = new Set(["id", "fareToken"]);

const isPlain = (v: object): boolean => {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

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

  /**
   * The key of a member: a text by its length and itself (no quoting to do, never ambiguous), a kept value
   * by its number, anything else by its type and value.
   */
  const keyOf = (v: unknown): string => {
    if (typeof v === "string") return `${v.length}'${v}`;
    if (typeof v === "object" && v !== null) return `#${ids.get(v) ?? "?"}`;
    return `${typeof v}:${String(v)}`;
  };

  const keep = <T extends object>(key: string, made: T): T => {
    const kept = values.get(key);
    if (kept !== undefined) return kept as T;
    ensureRoom();
    values.set(key, made);
    ids.set(made, next++);
    return made;
  };

  const value = (v: unknown): unknown => {
    if (typeof v === "string") return text(v);
    if (typeof v !== "object" || v === null) return v;
    if (ids.has(v)) return v;
    if (Array.isArray(v)) {
      const items = v.map(value);
      if (items.some((i) => typeof i === "object" && i !== null && !ids.has(i))) return items;
      return keep(`[${items.map(keyOf).join(",")}]`, items);
    }
    if (!isPlain(v)) return v;
    const copy: Record<string, unknown> = {};
    let key = "{";
    let shareable = true;
    for (const [k, member] of Object.entries(v)) {
      const m = value(member);
      copy[k] = m;
      if (typeof m === "object" && m !== null && !ids.has(m)) shareable = false;
      key += `${k.length}'${k}:${keyOf(m)},`;
    }
    return shareable ? keep(`${key}}`, copy) : copy;
  };

  return {
    offer: (offer) => {
      const copy: Record<string, unknown> = {};
      for (const [k, member] of Object.entries(offer)) copy[k] = OWN.has(k) ? member : value(member);
      return copy as unknown as Offer;
    },
  };
};
