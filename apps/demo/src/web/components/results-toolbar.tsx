import { PAGE_SIZES } from "../search/search-form-model.js";
import type { SortKey } from "../search/mode-a-view.js";

const SORTS: readonly { readonly key: SortKey; readonly label: string }[] = [
  { key: "preco", label: "Menor preço" },
  { key: "duracao", label: "Menor duração" },
  { key: "partida", label: "Saída mais cedo" },
];

interface ResultsToolbarProps {
  /** Price groups in the whole result (`pagination.totalItems`). */
  readonly totalItems: number;
  /** Groups on this page, and how many pass the filters. */
  readonly onPage: number;
  readonly shown: number;
  readonly sort: SortKey;
  readonly pageSize: number;
  readonly onSort: (sort: SortKey) => void;
  readonly onPageSize: (size: number) => void;
}

/** Counts of the result, the ordering and the page size. */
export const ResultsToolbar = ({ totalItems, onPage, shown, sort, pageSize, onSort, onPageSize }: ResultsToolbarProps) => (
  <div class="toolbar">
    <p class="toolbar__count" data-testid="total">
      <strong>{totalItems}</strong> {totalItems === 1 ? "grupo de preço" : "grupos de preço"}
      {shown < onPage ? <span class="muted"> · {shown} de {onPage} nesta página com os filtros</span> : null}
    </p>
    <div class="toolbar__controls">
      <label class="field--inline">
        <span>Ordenar</span>
        <select value={sort} onChange={(e) => onSort(e.currentTarget.value as SortKey)} aria-label="Ordenar resultados">
          {SORTS.map((s) => (
            <option key={s.key} value={s.key}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <label class="field--inline">
        <span>Por página</span>
        <select value={pageSize} onChange={(e) => onPageSize(Number(e.currentTarget.value))} aria-label="Grupos por página">
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
    </div>
  </div>
);
