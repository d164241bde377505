/**
 * Country names in Brazilian Portuguese from their ISO codes, through `Intl.DisplayNames` (CLDR's names,
 * in every runtime core supports: Node, workerd, Deno, Bun, browsers). A runtime without it, or without
 * Portuguese data, gives undefined, and the directory keeps the data set's English name.
 */

let regions: Intl.DisplayNames | null | undefined;

/** `Brasil` for `BR`, `Estados Unidos` for `US`; undefined for an empty or unknown code. */
export const countryNamePtBr = (code: string): string | undefined => {
  if (code === "") return undefined;
  if (regions === undefined) {
    try {
      regions = new Intl.DisplayNames(["pt-BR"], { type: "region", fallback: "none" });
    } catch {
      // No Intl.DisplayNames here: names stay as the data set writes them.
      regions = null;
    }
  }
  try {
    return regions?.of(code) ?? undefined;
  } catch {
    // A code this runtime's data does not know (RangeError): keep the data set's name.
    return undefined;
  }
};
