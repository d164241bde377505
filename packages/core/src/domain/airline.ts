/** Companhia id meaning "all airlines" (Mode A). `null` or an absent Companhia mean the same. */
export const ALL_AIRLINES = -1;
/** Companhia id meaning "compare all online travel agencies" (Mode B). */
export const OTA_COMPARISON = 1300;

/**
 * What a single-airline id stands for: an airline (with its own miles programme), a loyalty programme that
 * sells other airlines' seats for its points (Livelo), or the upstream's interline source (cash fares
 * combining airlines).
 */
export type AirlineKind = "airline" | "programme" | "interline";

/** An airline and its loyalty programme, as the real deployment numbers them (decisions.md). */
export interface Airline {
  /** The Companhia id used on the wire. */
  readonly id: number;
  readonly kind: AirlineKind;
  /** IATA designator; empty for a programme or the interline source, which fly no aircraft of their own. */
  readonly iata: string;
  /** ICAO designator; empty like `iata`. */
  readonly icao: string;
  readonly name: string;
  readonly country: string;
  /**
   * The miles programme its award offers are priced in (`Smiles` for GOL, `Livelo` for Livelo). Empty for
   * the interline source: its award offers, if any, are the validating airline's.
   */
  readonly programme: string;
}

/**
 * The single-airline ids of decisions.md, plus the two further sources the real deployment serves:
 * 34 Livelo, a points programme of its own (not GOL's Smiles), and 1200 Interline.
 */
export const AIRLINES: readonly Airline[] = [
  { id: 1, kind: "airline", iata: "LA", icao: "TAM", name: "LATAM", country: "Brasil", programme: "LATAM Pass" },
  { id: 2, kind: "airline", iata: "G3", icao: "GLO", name: "GOL", country: "Brasil", programme: "Smiles" },
  { id: 3, kind: "airline", iata: "AD", icao: "AZU", name: "Azul", country: "Brasil", programme: "TudoAzul" },
  { id: 11, kind: "airline", iata: "TP", icao: "TAP", name: "TAP", country: "Portugal", programme: "TAP Miles&Go" },
  { id: 13, kind: "airline", iata: "CM", icao: "CMP", name: "Copa", country: "Panamá", programme: "ConnectMiles" },
  { id: 22, kind: "airline", iata: "AA", icao: "AAL", name: "American Airlines", country: "Estados Unidos", programme: "AAdvantage" },
  { id: 26, kind: "airline", iata: "IB", icao: "IBE", name: "Iberia", country: "Espanha", programme: "Iberia Plus" },
  { id: 34, kind: "programme", iata: "", icao: "", name: "Livelo", country: "Brasil", programme: "Livelo" },
  { id: 1200, kind: "interline", iata: "", icao: "", name: "Interline", country: "Brasil", programme: "" },
];

/** Companhia id of Livelo, the points programme. */
export const LIVELO = 34;
/** Companhia id of the upstream's interline source. */
export const INTERLINE = 1200;

const byId = new Map(AIRLINES.map((a) => [a.id, a]));
const byIata = new Map(AIRLINES.filter((a) => a.iata !== "").map((a) => [a.iata, a]));

/** The airline of a Companhia id, if it is one of the single-airline ids. */
export const airlineById = (id: number): Airline | undefined => byId.get(id);
/** The source of a loyalty programme's name (`Livelo` gives Livelo, 34), for programmes that are sources of their own. */
export const programmeSource = (programme: string): Airline | undefined => {
  const wanted = programme.trim().toLowerCase();
  return AIRLINES.find((a) => a.kind === "programme" && a.programme.toLowerCase() === wanted);
};

/** The airline of an IATA designator (`LA`, `G3`, ...), if known. */
export const airlineByIata = (iata: string): Airline | undefined => byIata.get(iata.toUpperCase());
