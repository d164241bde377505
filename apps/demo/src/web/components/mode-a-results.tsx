import type { ModeAEnvelope } from "@voar/core";
import { useMemo, useState } from "preact/hooks";
import { filterOptionsOf, hasFilters, keyedFlights, NO_FILTERS, visibleFlights, type ModeAFilters, type SortKey } from "../search/mode-a-view.js";
import { FiltersPanel } from "./filters-panel.js";
import { FlightGroupCard } from "./flight-group-card.js";
import { PaginationBar } from "./pagination-bar.js";
import { ResultsToolbar } from "./results-toolbar.js";

interface ModeAResultsProps {
  readonly envelope: ModeAEnvelope;
  /** A page change is on its way: the rows on screen are the previous page's. */
  readonly paging: boolean;
  readonly onPage: (page: number) => void;
  readonly onPageSize: (size: number) => void;
}

/**
 * Mode A: the price groups of one API page, in the API's stable order (cheapest first), each keyed so that
 * rows arriving later are inserted around the ones being read instead of redrawing them; filters from
 * `meta`, sorting, and the API's pagination.
 */
export const ModeAResults = ({ envelope, paging, onPage, onPageSize }: ModeAResultsProps) => {
  const [filters, setFilters] = useState<ModeAFilters>(NO_FILTERS);
  const [sort, setSort] = useState<SortKey>("preco");
  const group = envelope.Data[0];
  const rows = useMemo(() => keyedFlights(group?.flights ?? []), [group]);
  const positioned = useMemo(() => {
    const first = (envelope.pagination.currentPage - 1) * envelope.pagination.pageSize;
    return rows.map((r, i) => ({ ...r, position: first + i + 1 }));
  }, [rows, envelope.pagination]);
  const visible = visibleFlights(positioned, filters, sort);
  const options = useMemo(() => filterOptionsOf(group?.meta), [group?.meta]);

  return (
    <div class="results results--a">
      <FiltersPanel options={options} filters={filters} onChange={setFilters} />
      <div class="results__main">
        <ResultsToolbar
          totalItems={envelope.pagination.totalItems}
          onPage={rows.length}
          shown={visible.length}
          sort={sort}
          pageSize={envelope.pagination.pageSize}
          onSort={setSort}
          onPageSize={onPageSize}
        />
        {visible.length > 0 ? (
          <ol class={paging ? "flight-list is-paging" : "flight-list"} aria-busy={paging} data-testid="lista-a">
            {visible.map((r) => (
              <li key={r.key} data-key={r.key}>
                <FlightGroupCard flight={r.flight} position={r.position} />
              </li>
            ))}
          </ol>
        ) : (
          <p class="empty">
            {hasFilters(filters)
              ? "Nenhum grupo desta página passa pelos filtros. Limpe-os ou veja outra página."
              : envelope.Completed
                ? "Nenhum voo encontrado para esta busca."
                : "Aguardando as primeiras respostas…"}
          </p>
        )}
        <PaginationBar pagination={envelope.pagination} busy={paging} onPage={onPage} />
        <p class="muted page-info" data-testid="pagina">
          Página {envelope.pagination.currentPage} de {Math.max(1, envelope.pagination.totalPages)} · {envelope.pagination.pageSize} por página
        </p>
      </div>
    </div>
  );
};
