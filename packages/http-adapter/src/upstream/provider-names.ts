/**
 * Which airline of an all-airlines upstream search is still searching, and whose each offer is. The upstream
 * lists the providers still at work in `ActiveProviders` (`["Latam", "Gol", "Azul", "Livelo", "Tap",
 * "Interline", "iberia", "AmericanAirlines"]` in a real first answer): an airline is done once its name has
 * left that list. Names are matched loosely (case, accents, spaces and punctuation aside) against the
 * airline's name, programme and IATA designator.
 */
import { AIRLINES, type Offer } from "@voar/core";

/** A name reduced to lower-case letters and digits: `American Airlines`, `AmericanAirlines` and `american-airlines` are one. */
const plain = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");

/** Companhia id by every plain name the upstream may give an airline. */
const BY_NAME: ReadonlyMap<string, number> = new Map(
  AIRLINES.flatMap((a) => [a.name, a.programme, a.iata].filter((n) => n !== "").map((n) => [plain(n), a.id] as const)),
);

/** The Companhia id a provider name of `ActiveProviders` stands for; undefined when it names none of them. */
export const airlineOfProvider = (name: string): number | undefined => BY_NAME.get(plain(name));

/**
 * The Companhia ids still searching, from an answer's `ActiveProviders`; undefined when the answer does not
 * list them (then an airline is done only when the whole search is).
 */
export const activeAirlines = (providers: readonly string[] | undefined): ReadonlySet<number> | undefined => {
  if (providers === undefined) return undefined;
  const ids = new Set<number>();
  for (const p of providers) {
    const id = airlineOfProvider(p);
    if (id !== undefined) ids.add(id);
  }
  return ids;
};

/** Sellers that are sources of their own (Livelo, Interline), by the seller id core's reader gives them. */
const SOURCE_SELLERS: ReadonlyMap<string, number> = new Map(AIRLINES.filter((a) => a.kind !== "airline").map((a) => [plain(a.name), a.id]));

/**
 * The Companhia id an offer of an all-airlines answer belongs to: the points programme or interline service
 * that sells it when it is one of the sources (Livelo's award seats on GOL flights are Livelo's), else its
 * validating airline; 0 when it is none of the single-airline ids.
 */
export const companhiaOf = (offer: Offer): number => SOURCE_SELLERS.get(plain(offer.seller.id)) ?? offer.airlineId;
