import { formatCount } from "../../shared/pt-br-format.js";
import { PAGE_SIZES } from "../search/search-form-model.js";
import { SORTS, type SortKey } from "../search/mode-a-view.js";

interface ResultsToolbarProps {
  /** Price groups of the whole result that pass the filters (`pagination.totalItems`). */
  readonly totalItems: number;
  /** Price groups of the whole result without filters (`meta.TotalGroups`), shown when filters are set. */
  readonly unfiltered?: number | undefined;
  readonly sort: SortKey;
  readonly pageSize: number;
  readonly onSort: (sort: SortKey) => void;
  readonly onPageSize: (size: number) => void;
}

/** Counts of the whole result, the order the API sorts it in, and the page size. */
export const ResultsToolbar = ({ totalItems, unfiltered, sort, pageSize, onSort, onPageSize }: ResultsToolbarProps) => (
  <div class="toolbar">
    <p class="toolbar__count" data-testid="total">
      <strong>{formatCount(totalItems)}</strong> {totalItems === 1 ? "grupo de preço" : "grupos de preço"}
      {unfiltered !== undefined ? <span class="muted"> com os filtros, de {formatCount(unfiltered)} no total</span> : null}
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
