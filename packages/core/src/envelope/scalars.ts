import * as z from "zod";
import { toDecimal, type Money } from "../domain/money.js";

/**
 * The scalar values of the wire contract and their conversions from the domain: airport codes,
 * zone-less local date-times, decimal amounts and `HH:MM` times. Shared by the Mode A and Mode B writers.
 */

/** An IATA airport code as the service writes it: three upper-case letters. */
export const IataCodeSchema = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .meta({ description: "Código IATA do aeroporto (3 letras maiúsculas).", examples: ["CNF"] });

/** A local date-time without zone (`2025-07-20T10:40:00`), local to the airport it belongs to. */
export const LocalDateTimeSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/)
  .meta({
    description: "Data e hora locais do aeroporto, ISO 8601 sem fuso (AAAA-MM-DDTHH:mm:ss).",
    examples: ["2025-07-20T10:40:00"],
  });

/** A money amount on the wire: a decimal number of reais, exact to the centavo. */
export const DecimalAmountSchema = z
  .number()
  .multipleOf(0.01)
  .meta({ description: "Valor decimal na moeda da oferta (BRL), exato ao centavo.", examples: [1091.96] });

/** A percentage (0..100), unrounded. */
export const PercentSchema = z.number().min(0).max(100).meta({ description: "Percentual (0 a 100)." });

/** A count or an id: a non-negative safe integer. */
export const CountSchema = z.int().min(0);

/**
 * Converts money to the wire decimal. The domain keeps integer centavos, so the single division here
 * yields the double nearest to the decimal (`109196` -> `1091.96`), never an accumulated float error.
 */
export const wireAmount = (m: Money): number => toDecimal(m);

/** Adds the centavos of several amounts (same currency assumed: one offer, one currency). */
export const sumCentavos = (amounts: readonly (Money | undefined)[]): number =>
  amounts.reduce((sum, m) => sum + (m?.amount ?? 0), 0);

/** Writes a local date-time with seconds (`2025-07-20T10:40` -> `2025-07-20T10:40:00`), dropping anything after them. */
export const wireLocalDateTime = (local: string): string => (local.length === 16 ? `${local}:00` : local.slice(0, 19));

/** Formats minutes as `HH:MM` (the wire's `Tempo` of a leg): `65` -> `01:05`. */
export const formatHoursMinutes = (minutes: number): string => {
  const m = Math.max(0, Math.round(minutes));
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
};
