/**
 * Travel dates written as literals expire: an example that searches 2026-12-20 fails from the next day on with
 * "Ida não pode ser anterior a hoje". Readers' files must compute a date instead: in the shell with Node
 * (`$(node -p 'new Date(Date.now() + 30 * 864e5).toISOString().slice(0, 10)')`; GNU's `date -d` does not exist on
 * macOS, see {@link findGnuDates}), `+30` in the CLI and the client, code from today. A `YYYY-MM-DD` is taken for a travel date unless it is one of
 * what never expires:
 *
 * - part of a timestamp with a time and a zone (`2026-09-01T12:00:00.000Z`): a log line's or an offer's moment,
 *   or a test's fixed clock, not a day to fly;
 * - `0001-01-01`, the legacy API's "no return";
 * - on a line about a compatibility date (wrangler's `compatibility_date`) or a measurement ("Measured …");
 *
 * and CHANGELOG.md files are history (see `reader-files.ts`). A date that means "any day" in a format's
 * description is written `YYYY-MM-DD`.
 */
import { readerFiles, sourceExamples } from "./reader-files.js";

const DATE = /\b(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?/g;
const EXEMPT_LINE = /compatibility[_ ]date|\bmeasured\b/i;

/** A literal travel date: where, and the date. */
export interface LiteralDate {
  readonly where: string;
  readonly date: string;
}

/** The literal travel dates of one text (see above for what is not one). */
export const literalDatesIn = (text: string): readonly { readonly line: number; readonly date: string }[] => {
  const found: { line: number; date: string }[] = [];
  text.split("\n").forEach((line, i) => {
    if (EXEMPT_LINE.test(line)) return;
    for (const m of line.matchAll(DATE)) {
      const [all, year, month, day, time, zone] = m;
      if (time && zone) continue;
      if (all.startsWith("0001-01-01")) continue;
      if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > 31 || Number(year) < 1900) continue;
      found.push({ line: i + 1, date: all });
    }
  });
  return found;
};

/** Every literal travel date of the readers' files and of the packages' doc-comment examples. */
export const findLiteralDates = async (): Promise<readonly LiteralDate[]> => {
  const found: LiteralDate[] = [];
  for (const { file, text } of await readerFiles()) for (const d of literalDatesIn(text)) found.push({ where: `${file}:${d.line}`, date: d.date });
  for (const { file, lines } of await sourceExamples()) {
    for (const l of lines) for (const d of literalDatesIn(l.text)) found.push({ where: `${file}:${l.line} (@example)`, date: d.date });
  }
  return found;
};

/**
 * The lines of the readers' files that compute a date with GNU's `date -d` (or `--date`), which macOS's `date`
 * does not have: a snippet a reader on a Mac copies must work there too (`node -p` of a `Date` does, wherever
 * the Quick Start runs).
 */
export const findGnuDates = async (): Promise<readonly string[]> =>
  (await readerFiles()).flatMap(({ file, text }) => text.split("\n").flatMap((line, i) => (/\bdate\s+(-d|--date)\b/.test(line) ? [`${file}:${i + 1}`] : [])));
