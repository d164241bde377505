import type { Figure } from "./measure.js";

/** One line of the report table. */
export interface Row {
  readonly section: string;
  readonly figure: string;
  /** Median (min–max) with unit. */
  readonly value: string;
  /** The comparison's ratio and its target, when the figure is a comparison. */
  readonly ratio?: string | undefined;
  readonly target?: string | undefined;
  readonly verdict?: "met" | "missed" | "info" | undefined;
}

/** `12.3 (min 11.0, max 14.2) ms` */
export const cell = (f: Figure, unit: string, digits = 2): string =>
  `${f.median.toFixed(digits)} ${unit} (${f.min.toFixed(digits)}–${f.max.toFixed(digits)})`;

/** Renders rows as a Markdown table. */
export const markdownTable = (rows: readonly Row[]): string => {
  const lines = ["| Section | Figure | Median (min–max) | Ratio | Target | |", "|---|---|---|---|---|---|"];
  for (const r of rows) {
    const mark = r.verdict === "met" ? "✅" : r.verdict === "missed" ? "❌" : "";
    lines.push(`| ${r.section} | ${r.figure} | ${r.value} | ${r.ratio ?? ""} | ${r.target ?? ""} | ${mark} |`);
  }
  return lines.join("\n");
};

/**
 * The report's summary, one screen: per section, the targets met and missed, and the figures that missed theirs
 * (each cut to its first words). The full table and the notes follow it.
 */
export const summaryTable = (rows: readonly Row[]): string => {
  const sections = [...new Set(rows.map((r) => r.section))];
  const short = (figure: string) => (figure.length > 70 ? `${figure.slice(0, 67).trimEnd()}…` : figure);
  const lines = ["| Section | Targets met | Missed | Which |", "|---|---|---|---|"];
  for (const section of sections) {
    const of = rows.filter((r) => r.section === section);
    const missed = of.filter((r) => r.verdict === "missed");
    lines.push(`| ${section} | ${of.filter((r) => r.verdict === "met").length} | ${missed.length} | ${missed.map((r) => short(r.figure.trim())).join("; ")} |`);
  }
  return lines.join("\n");
};

/** A note as a list item; one of more than `long` characters folded after its first sentence (the rest on demand). */
export const noteItem = (note: string, long = 1_500): string => {
  if (note.length <= long) return `- ${note}`;
  const end = note.search(/[.:;](\s|$)/);
  const first = end > 0 && end < 400 ? note.slice(0, end + 1) : `${note.slice(0, 300).trimEnd()}…`;
  const rest = end > 0 && end < 400 ? note.slice(end + 1).trim() : note;
  return `- <details><summary>${first}</summary>\n\n  ${rest}\n\n  </details>`;
};
