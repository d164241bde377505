import { useState } from "preact/hooks";
import { toggled, type FilterOption, type FilterOptions, type ModeAFilters } from "../search/mode-a-view.js";

interface FilterGroupProps<K> {
  readonly legend: string;
  readonly name: string;
  readonly options: readonly FilterOption<K>[];
  readonly selected: ReadonlySet<K>;
  readonly onToggle: (key: K) => void;
}

const FilterGroup = <K extends string | number>({ legend, name, options, selected, onToggle }: FilterGroupProps<K>) =>
  options.length === 0 ? null : (
    <fieldset class="filter-group">
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={String(o.key)} class="check">
          <input type="checkbox" name={name} value={String(o.key)} checked={selected.has(o.key)} onChange={() => onToggle(o.key)} />
          <span>{o.label}</span>
          {o.count !== undefined ? <span class="check__count">{o.count}</span> : null}
        </label>
      ))}
    </fieldset>
  );

interface FiltersPanelProps {
  readonly options: FilterOptions;
  readonly filters: ModeAFilters;
  readonly onChange: (filters: ModeAFilters) => void;
}

/**
 * Filters built from the answer's `meta` (outbound stops with their counts, airlines, departure times).
 * On phones they fold into a disclosure, so the results come first.
 */
export const FiltersPanel = ({ options, filters, onChange }: FiltersPanelProps) => {
  const active = filters.stops.size + filters.airlines.size + filters.periods.size;
  // Open beside the results on wide screens; folded above them on phones, so the flights come first.
  const [wide] = useState(() => window.matchMedia("(min-width: 1000px)").matches);
  return (
    <aside class="filters" aria-labelledby="filtros-titulo">
      <details class="filters__disclosure" open={wide}>
        <summary id="filtros-titulo">
          Filtros{active > 0 ? ` (${active})` : ""}
        </summary>
        <FilterGroup legend="Paradas na ida" name="paradas" options={options.stops} selected={filters.stops} onToggle={(k) => onChange({ ...filters, stops: toggled(filters.stops, k) })} />
        <FilterGroup legend="Companhias" name="companhias" options={options.airlines} selected={filters.airlines} onToggle={(k) => onChange({ ...filters, airlines: toggled(filters.airlines, k) })} />
        <FilterGroup legend="Saída da ida" name="horarios" options={options.periods} selected={filters.periods} onToggle={(k) => onChange({ ...filters, periods: toggled(filters.periods, k) })} />
        {active > 0 ? (
          <button type="button" class="link-button" onClick={() => onChange({ stops: new Set(), airlines: new Set(), periods: new Set() })}>
            Limpar filtros
          </button>
        ) : null}
        <p class="muted filters__note">
          Opções e contagens vêm do <code>meta</code> da resposta (a busca inteira); a API não filtra, então os filtros valem para os grupos desta página.
        </p>
      </details>
    </aside>
  );
};
