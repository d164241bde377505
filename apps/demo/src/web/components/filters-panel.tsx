import { useState } from "preact/hooks";
import { formatCount } from "../../shared/pt-br-format.js";
import { activeFilters, NO_FILTERS, toggled, type FilterOption, type FilterOptions, type ModeAFilters } from "../search/mode-a-view.js";

const NONE: ReadonlySet<number> = new Set<number>();

const Count = ({ count }: { readonly count?: number | undefined }) =>
  count !== undefined ? (
    <span class="check__count" data-testid="contagem">
      {formatCount(count)}
    </span>
  ) : null;

interface CheckGroupProps<K> {
  readonly legend: string;
  readonly name: string;
  readonly options: readonly FilterOption<K>[];
  readonly selected: ReadonlySet<K>;
  readonly onToggle: (key: K) => void;
}

const CheckGroup = <K extends string | number>({ legend, name, options, selected, onToggle }: CheckGroupProps<K>) =>
  options.length === 0 ? null : (
    <fieldset class="filter-group">
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={String(o.key)} class="check">
          <input type="checkbox" name={name} value={String(o.key)} checked={selected.has(o.key)} onChange={() => onToggle(o.key)} />
          <span>{o.label}</span>
          <Count count={o.count} />
        </label>
      ))}
    </fieldset>
  );

interface RadioGroupProps<K> {
  readonly legend: string;
  readonly name: string;
  readonly options: readonly FilterOption<K>[];
  readonly selected: K | undefined;
  readonly onPick: (key: K | undefined) => void;
}

/** One choice among the options, or "Qualquer" for none (the API takes one window per direction). */
const RadioGroup = <K extends string>({ legend, name, options, selected, onPick }: RadioGroupProps<K>) =>
  options.length === 0 ? null : (
    <fieldset class="filter-group">
      <legend>{legend}</legend>
      <label class="check">
        <input type="radio" name={name} value="" checked={selected === undefined} onChange={() => onPick(undefined)} />
        <span>Qualquer</span>
      </label>
      {options.map((o) => (
        <label key={o.key} class="check">
          <input type="radio" name={name} value={o.key} checked={selected === o.key} onChange={() => onPick(o.key)} />
          <span>{o.label}</span>
          <Count count={o.count} />
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
 * Filters of the whole result: each change asks the API again for the same search with `Filtros`, and the
 * counts beside each option are `meta.Contagens` (price groups of the whole result that option alone lets
 * through). On phones they fold into a disclosure, so the results come first.
 */
export const FiltersPanel = ({ options, filters, onChange }: FiltersPanelProps) => {
  const active = activeFilters(filters);
  // Open beside the results on wide screens; folded above them on phones, so the flights come first.
  const [wide] = useState(() => window.matchMedia("(min-width: 1000px)").matches);
  return (
    <aside class="filters" aria-labelledby="filtros-titulo">
      <details class="filters__disclosure" open={wide}>
        <summary id="filtros-titulo">
          Filtros{active > 0 ? ` (${active})` : ""}
        </summary>
        <CheckGroup
          legend={options.returnStops.length > 0 ? "Paradas na ida" : "Paradas"}
          name="paradas"
          options={options.stops}
          selected={filters.stops}
          onToggle={(k) => onChange({ ...filters, stops: toggled(filters.stops, k) })}
        />
        <CheckGroup
          legend="Paradas na volta"
          name="paradas-volta"
          options={options.returnStops}
          selected={filters.returnStops ?? NONE}
          onToggle={(k) => onChange({ ...filters, returnStops: toggled(filters.returnStops ?? NONE, k) })}
        />
        <CheckGroup legend="Companhias" name="companhias" options={options.airlines} selected={filters.airlines} onToggle={(k) => onChange({ ...filters, airlines: toggled(filters.airlines, k) })} />
        <RadioGroup legend="Pagamento" name="pagamento" options={options.payments} selected={filters.payment} onPick={(k) => onChange({ ...filters, payment: k })} />
        <RadioGroup legend="Saída da ida" name="horario-ida" options={options.outbound} selected={filters.outbound} onPick={(k) => onChange({ ...filters, outbound: k })} />
        <RadioGroup legend="Saída da volta" name="horario-volta" options={options.inbound} selected={filters.inbound} onPick={(k) => onChange({ ...filters, inbound: k })} />
        {active > 0 ? (
          <button type="button" class="link-button" onClick={() => onChange(NO_FILTERS)}>
            Limpar filtros
          </button>
        ) : null}
        <p class="muted filters__note">
          Os filtros valem para o resultado inteiro (todas as páginas): a API os aplica. Cada número conta os grupos de preço que aquela opção, sozinha,
          deixa passar; numa ida e volta, as paradas de cada trecho somam o total.
        </p>
      </details>
    </aside>
  );
};
