import type { ModeAEnvelope } from "@voar/core";
import { useMemo } from "preact/hooks";
import { formatCount } from "../../shared/pt-br-format.js";
import { activeFilters, airlineNamesOf, filterOptionsOf, keyedFlights, type ModeAFilters, type SortKey } from "../search/mode-a-view.js";
import { FiltersPanel } from "./filters-panel.js";
import { FlightGroupCard } from "./flight-group-card.js";
import { PaginationBar } from "./pagination-bar.js";
import { ResultsToolbar } from "./results-toolbar.js";

interface ModeAResultsProps {
  readonly envelope: ModeAEnvelope;
  /** The filters and order asked for; the envelope may still be the previous view's while `paging`. */
  readonly filters: ModeAFilters;
  readonly sort: SortKey;
  /** A page or view change is on its way: the rows on screen are the previous answer's. */
  readonly paging: boolean;
  readonly onPage: (page: number) => void;
  readonly onPageSize: (size: number) => void;
  /** Another view of the same search: the API filters and sorts the whole result, from page 1. */
  readonly onView: (filters: ModeAFilters, sort: SortKey) => void;
}

/**
 * Mode A: one API page of price groups, in the order the API sorted the whole result in, each keyed so
 * that rows arriving later are inserted around the ones being read instead of redrawing them; filters
 * and counts of the whole result from `meta`, and the API's pagination.
 */
export const ModeAResults = ({ envelope, filters, sort, paging, onPage, onPageSize, onView }: ModeAResultsProps) => {
  const group = envelope.Data[0];
  const rows = useMemo(() => keyedFlights(group?.flights ?? []), [group]);
  const positioned = useMemo(() => {
    const first = (envelope.pagination.currentPage - 1) * envelope.pagination.pageSize;
    return rows.map((r, i) => ({ ...r, position: first + i + 1 }));
  }, [rows, envelope.pagination]);
  const names = useMemo(() => airlineNamesOf(group?.flights ?? []), [group]);
  const options = useMemo(() => filterOptionsOf(group?.meta, names, filters), [group?.meta, names, filters]);
  const filtered = activeFilters(filters) > 0;
  const { totalItems, currentPage, totalPages, pageSize } = envelope.pagination;

  return (
    <div class="results results--a">
      <FiltersPanel options={options} filters={filters} onChange={(f) => onView(f, sort)} />
      <div class="results__main">
        <ResultsToolbar
          totalItems={totalItems}
          unfiltered={filtered ? group?.meta.TotalGroups : undefined}
          sort={sort}
          pageSize={pageSize}
          onSort={(s) => onView(filters, s)}
          onPageSize={onPageSize}
        />
        <p class="muted group-note" data-testid="o-que-e-um-grupo">
          {group?.meta.ReturnFilter
            ? "Cada grupo é um preço total de ida e volta de uma companhia: as idas e as voltas que se combinam por exatamente esse preço (os outros horários ficam em “+N horários no mesmo preço”)."
            : "Cada grupo é um preço de uma companhia: os horários vendidos por exatamente esse preço (os outros ficam em “+N horários no mesmo preço”)."}
        </p>
        {positioned.length > 0 ? (
          <ol class={paging ? "flight-list is-paging" : "flight-list"} aria-busy={paging} data-testid="lista-a">
            {positioned.map((r) => (
              <li key={r.key} data-key={r.key}>
                <FlightGroupCard flight={r.flight} position={r.position} />
              </li>
            ))}
          </ol>
        ) : (
          <p class="empty">
            {filtered && (group?.meta.TotalGroups ?? 0) > 0
              ? "Nenhum grupo de preço passa por estes filtros. Mude ou limpe os filtros."
              : envelope.Completed
                ? "Nenhum voo encontrado para esta busca."
                : "Aguardando as primeiras respostas…"}
          </p>
        )}
        <PaginationBar pagination={envelope.pagination} busy={paging} onPage={onPage} />
        <p class="muted page-info" data-testid="pagina">
          Página {currentPage} de {Math.max(1, totalPages)} · {pageSize} por página · {formatCount(totalItems)} {totalItems === 1 ? "grupo" : "grupos"}
        </p>
      </div>
    </div>
  );
};
