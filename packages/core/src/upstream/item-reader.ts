/**
 * Reads the items of an answer one by one: an item the schema rejects is left out and noted (path and
 * field, never the upstream's values), so one odd flight costs that flight only, and the caller can still
 * tell a whole answer that could not be read from one with a few odd items.
 */
import type * as z from "zod";

/** Items left out of an answer: how many, and a few notes on why (`Data[0].flights[3]: campo fareGroup.priceWithTax inválido`). */
export interface SkippedItems {
  readonly count: number;
  readonly notes: readonly string[];
}

/** Notes kept per answer; the count goes on beyond. */
const MAX_NOTES = 10;

/** Collects the items left out while reading one answer. */
export class SkipLog {
  private readonly kept: string[] = [];
  private total = 0;

  /** Records an item left out, at a wire path, for a short reason. */
  note(path: string, reason: string): void {
    this.total++;
    if (this.kept.length < MAX_NOTES) this.kept.push(`${path}: ${reason}`);
  }

  /** What was left out so far. */
  get skipped(): SkippedItems {
    return { count: this.total, notes: [...this.kept] };
  }
}

/** A wire path of a zod issue: `fareGroup.priceWithTax`, `legs[0].departureDate`. */
const pathText = (path: readonly PropertyKey[]): string =>
  path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)).join("");

/** The short reason of a failed parse: the first offending field, in the envelope's language. */
export const issueReason = (error: z.ZodError): string => {
  const issue = error.issues[0];
  const where = issue ? pathText(issue.path) : "";
  return where === "" ? "formato inesperado" : `campo ${where} inválido`;
};

/** Parses one item; when the schema rejects it, notes why at `path` and gives undefined. */
export const readItem = <S extends z.ZodType>(
  schema: S,
  value: unknown,
  path: string,
  log: SkipLog,
): z.output<S> | undefined => {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  log.note(path, issueReason(parsed.error));
  return undefined;
};
