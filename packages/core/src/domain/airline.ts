/** Companhia id meaning "all airlines" (Mode A). `null` or an absent Companhia mean the same. */
export const ALL_AIRLINES = -1;
/** Companhia id meaning "compare all online travel agencies" (Mode B). */
export const OTA_COMPARISON = 1300;

/** An airline and its loyalty programme, as the real deployment numbers them (decisions.md). */
export interface Airline {
  /** The Companhia id used on the wire. */
  readonly id: number;
  readonly iata: string;
  readonly icao: string;
  readonly name: string;
  readonly country: string;
  /** The airline's miles programme. */
  readonly programme: string;
}

/** The single-airline ids of decisions.md. */
export const AIRLINES: readonly Airline[] = [
  { id: 1, iata: "LA", icao: "TAM", name: "LATAM", country: "Brasil", programme: "LATAM Pass" },
  { id: 2, iata: "G3", icao: "GLO", name: "GOL", country: "Brasil", programme: "Smiles" },
  { id: 3, iata: "AD", icao: "AZU", name: "Azul", country: "Brasil", programme: "TudoAzul" },
  { id: 11, iata: "TP", icao: "TAP", name: "TAP", country: "Portugal", programme: "TAP Miles&Go" },
  { id: 13, iata: "CM", icao: "CMP", name: "Copa", country: "Panamá", programme: "ConnectMiles" },
  { id: 22, iata: "AA", icao: "AAL", name: "American Airlines", country: "Estados Unidos", programme: "AAdvantage" },
  { id: 26, iata: "IB", icao: "IBE", name: "Iberia", country: "Espanha", programme: "Iberia Plus" },
];

const byId = new Map(AIRLINES.map((a) => [a.id, a]));
const byIata = new Map(AIRLINES.map((a) => [a.iata, a]));

/** The airline of a Companhia id, if it is one of the single-airline ids. */
export const airlineById = (id: number): Airline | undefined => byId.get(id);
/** The airline of an IATA designator (`LA`, `G3`, ...), if known. */
export const airlineByIata = (iata: string): Airline | undefined => byIata.get(iata.toUpperCase());
