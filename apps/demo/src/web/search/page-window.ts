/** Page numbers to show around the current one: first, last, and two on each side, with gaps. */
export const pageWindow = (current: number, total: number): readonly (number | "…")[] => {
  const pages = new Set([1, total, current - 2, current - 1, current, current + 1, current + 2].filter((p) => p >= 1 && p <= total));
  const sorted = [...pages].sort((a, b) => a - b);
  const out: (number | "…")[] = [];
  for (const p of sorted) {
    const last = out.at(-1);
    if (typeof last === "number" && p - last > 1) out.push("…");
    out.push(p);
  }
  return out;
};
