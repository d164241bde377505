import type { Pagination } from "@voar/core";
import { pageWindow } from "../search/page-window.js";

interface PaginationBarProps {
  readonly pagination: Pagination;
  readonly busy: boolean;
  readonly onPage: (page: number) => void;
}

/** Pages as the API counts them (`pagination`): each click asks the API for that page of the same search. */
export const PaginationBar = ({ pagination, busy, onPage }: PaginationBarProps) => {
  const { currentPage, totalPages } = pagination;
  if (totalPages <= 1) return null;
  return (
    <nav class="pagination" aria-label="Páginas de resultados">
      <button type="button" class="button button--small" disabled={busy || currentPage <= 1} onClick={() => onPage(currentPage - 1)}>
        ‹ Anterior
      </button>
      <ol class="pagination__pages">
        {pageWindow(currentPage, totalPages).map((p, i) =>
          p === "…" ? (
            <li key={`gap-${i}`} class="pagination__gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={p}>
              <button
                type="button"
                class={p === currentPage ? "page-button is-current" : "page-button"}
                aria-current={p === currentPage ? "page" : undefined}
                aria-label={`Página ${p}`}
                disabled={busy}
                onClick={() => p !== currentPage && onPage(p)}
              >
                {p}
              </button>
            </li>
          ),
        )}
      </ol>
      <button type="button" class="button button--small" disabled={busy || currentPage >= totalPages} onClick={() => onPage(currentPage + 1)}>
        Próxima ›
      </button>
    </nav>
  );
};
