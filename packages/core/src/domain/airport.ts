/** An airport as the product knows it. */
export interface Airport {
  readonly iata: string;
  readonly name: string;
  readonly city: string;
  readonly country: string;
  readonly latitude: number;
  readonly longitude: number;
  /** IANA time zone, e.g. `America/Sao_Paulo`. */
  readonly timeZone: string;
}

/** Looks airports up by IATA code; a port so that a deployment may bring a smaller or larger table. */
export interface AirportDirectory {
  get(iata: string): Airport | undefined;
  /** Airports whose code, city or name match a text, best first. */
  search(text: string, limit?: number): readonly Airport[];
}
