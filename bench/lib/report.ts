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
