/**
 * `VOAR_*` variables that no entry reads: a misspelled setting (`VOAR_PROT`) would otherwise be ignored without a
 * word, as a JSON file's unknown key is not. Each is named with the closest variable the service knows.
 */
import { closest, distance } from "fastest-levenshtein";
import { ENTRY_VARS } from "./entry-vars.js";
import { ENV_VARS } from "./env-config.js";

/** Every `VOAR_*` variable the service and its entries read: the settings' and the entries' own. */
export const knownVariables = (): readonly string[] => [...Object.keys(ENV_VARS), ...Object.values(ENTRY_VARS)];

/** A `VOAR_*` variable no entry reads, and the known one closest to it (fewest letters to change). */
export interface UnknownVariable {
  readonly name: string;
  readonly closest: string;
  /** How many letters differ from the closest (Levenshtein distance). */
  readonly distance: number;
}

/**
 * Prefixes of `VOAR_*` variables that belong to other programs of the project, not to the service: the demo's
 * (`VOAR_DEMO_API_KEY`, `VOAR_DEMO_SEED`...: apps/demo), set in the same shell. Not typos of a setting.
 */
export const OTHER_PROGRAMS = ["VOAR_DEMO_"] as const;

/** A suggestion this far from the name (more letters to change) is no help: the message then names none. */
const FAR = 4;

/**
 * The `VOAR_*` variables of an environment that the service does not read, each with its closest known name, in
 * the environment's order. Variables of other programs (not `VOAR_`, or of {@link OTHER_PROGRAMS}) are not looked at.
 *
 * @example
 * unknownVariables({ VOAR_PROT: "8080" }); // [{ name: "VOAR_PROT", closest: "VOAR_PORT", distance: 2 }]
 */
export const unknownVariables = (env: Readonly<Record<string, unknown>>, known: readonly string[] = knownVariables()): UnknownVariable[] => {
  const names = new Set(known);
  return Object.keys(env)
    .filter((name) => name.startsWith("VOAR_") && !names.has(name) && !OTHER_PROGRAMS.some((prefix) => name.startsWith(prefix)))
    .map((name) => {
      const near = closest(name, [...known]);
      return { name, closest: near, distance: distance(name, near) };
    });
};

/** The sentence that says so, for a log line or a start-up error. */
export const unknownVariableMessage = (v: UnknownVariable): string =>
  v.distance < FAR ? `${v.name} is not a variable of the service (did you mean ${v.closest}?)` : `${v.name} is not a variable of the service`;
