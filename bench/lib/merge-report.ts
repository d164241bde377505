/**
 * `pnpm bench --only=<sections> --write`: the sections run again replace their rows and notes in BENCHMARKS.md, the
 * others kept as the file has them (each section's figures are measured side by side within the section, so a
 * section re-measured alone compares like with like). The file says which sections were re-measured when.
 */
import type { Row } from "./report.js";

/** BENCHMARKS.md read back: its table's rows, each section's notes as written, and its header line. */
export interface WrittenReport {
  readonly measured: string;
  readonly remeasured: readonly string[];
  readonly rows: readonly Row[];
  readonly notes: ReadonlyMap<string, string>;
  /** Blocks of their own (a `## ` heading other than the generated ones, to the next `## `), kept as written. */
  readonly extra: readonly string[];
}

const GENERATED = new Set(["## Summary", "## Every figure", "## How to read these figures"]);

const verdictOf = (mark: string): Row["verdict"] => (mark === "✅" ? "met" : mark === "❌" ? "missed" : undefined);

/** Reads the report a full run wrote (or a merged one). */
export const readReport = (text: string): WrittenReport => {
  const all = text.split("\n");
  // Blocks of their own are set aside first: their tables are not the report's rows.
  const extra: string[] = [];
  const lines: string[] = [];
  let block: string[] | undefined;
  for (const line of all) {
    if (line.startsWith("## ")) {
      if (block) extra.push(block.join("\n").trim());
      block = GENERATED.has(line) ? undefined : [line];
      if (!block) lines.push(line);
    } else if (block) block.push(line);
    else lines.push(line);
  }
  if (block) extra.push(block.join("\n").trim());
  const rows: Row[] = [];
  for (const line of lines) {
    if (!line.startsWith("| ") || !line.endsWith(" |")) continue;
    const cells = line.slice(2, -2).split(" | ");
    if (cells.length !== 6 || cells[0] === "Section") continue;
    const [section, figure, value, ratio, target, mark] = cells as [string, string, string, string, string, string];
    rows.push({ section, figure, value, ratio: ratio || undefined, target: target || undefined, verdict: verdictOf(mark.trim()) });
  }
  const notes = new Map<string, string>();
  const howTo = lines.findIndex((l) => l === "## How to read these figures");
  let title: string | undefined;
  let note: string[] = [];
  const close = () => {
    if (title !== undefined) notes.set(title, note.join("\n").trim());
  };
  for (const line of howTo < 0 ? [] : lines.slice(howTo + 1)) {
    if (line.startsWith("### ")) {
      close();
      title = line.slice(4);
      note = [];
    } else if (title !== undefined) note.push(line);
  }
  close();
  return {
    measured: lines.find((l) => l.startsWith("Measured ")) ?? "",
    remeasured: lines.filter((l) => l.startsWith("Re-measured ")),
    rows,
    notes,
    extra,
  };
};

/**
 * The rows and notes of a report where `fresh` sections (by title) replace the written ones, in the written order,
 * new sections last.
 */
export const mergeSections = (
  written: WrittenReport,
  fresh: readonly { readonly title: string; readonly rows: readonly Row[]; readonly notes: string }[],
): { rows: Row[]; notes: { title: string; text: string }[] } => {
  const order = [...new Set([...written.rows.map((r) => r.section), ...written.notes.keys(), ...fresh.map((s) => s.title)])];
  const rows: Row[] = [];
  const notes: { title: string; text: string }[] = [];
  for (const title of order) {
    const again = fresh.find((s) => s.title === title);
    rows.push(...(again ? again.rows : written.rows.filter((r) => r.section === title)));
    const text = again ? again.notes : written.notes.get(title);
    if (text !== undefined) notes.push({ title, text });
  }
  return { rows, notes };
};
