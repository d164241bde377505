import { airlineById, type Airline } from "@voar/core";

/**
 * What an airline's entry says after its name: its IATA code, or what it is when it has none (Livelo is
 * a points programme, Interline the upstream's source of fares combining airlines), never empty brackets.
 */
export const airlineKindNote = (a: Pick<Airline, "iata" | "kind">): string =>
  a.iata !== "" ? a.iata : a.kind === "programme" ? "programa de pontos" : a.kind === "interline" ? "tarifas entre companhias" : "";

/** `LATAM (LA)`, `Livelo (programa de pontos)`, `Interline (tarifas entre companhias)`. */
export const airlineLabel = (a: Pick<Airline, "name" | "iata" | "kind">): string => {
  const note = airlineKindNote(a);
  return note === "" ? a.name : `${a.name} (${note})`;
};

/** The note of an airline known by its Companhia id and IATA code, as the operator's list gives them. */
export const airlineNoteById = (id: number, iata: string): string => {
  const known = airlineById(id);
  return known ? airlineKindNote(known) : iata;
};
