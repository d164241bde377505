import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import type { DemoConfig } from "../shared/demo-config.js";
import { findAirport } from "./api/airports.js";
import { loadDemoConfig } from "./api/demo-config.js";
import { createVoarClient } from "./api/voar-client.js";
import { AppHeader } from "./components/app-header.js";
import { airportLabel } from "./components/airport-input.js";
import { DeveloperPanel } from "./components/developer-panel.js";
import { OperatorPanel } from "./components/operator-panel.js";
import { Intro, ResultsArea } from "./components/results-area.js";
import { CalendarStrip } from "./components/calendar-strip.js";
import { AlertControl } from "./components/alert-control.js";
import { SearchForm } from "./components/search-form.js";
import { useCalendar } from "./calendar/use-calendar.js";
import {
  calendarRequestOf,
  directoryOf,
  initialFormValues,
  requestOf,
  validateForm,
  withIda,
  type AirportFieldValue,
  type FieldMessages,
  type FormField,
  type SearchFormValues,
} from "./search/search-form-model.js";
import { NO_FILTERS, withView, type ModeAFilters, type SortKey } from "./search/mode-a-view.js";
import { useSearch } from "./search/use-search.js";

/** The airport field with its airport looked up when only a code was typed. */
const resolveAirport = async (field: AirportFieldValue): Promise<AirportFieldValue> => {
  if (field.airport) return field;
  const airport = await findAirport(field.text);
  return airport ? { text: airportLabel(airport), airport } : field;
};

const FIELD_ORDER: readonly FormField[] = ["origem", "destino", "ida", "volta", "adultos", "criancas", "bebes", "modo"];

/** The demo page: search form, progress, results, the operator panel and the developer's corner. */
export const App = () => {
  const [config, setConfig] = useState<DemoConfig | undefined>(undefined);
  const [loadError, setLoadError] = useState<string | undefined>(undefined);
  const [values, setValues] = useState<SearchFormValues>(() => initialFormValues());
  const [errors, setErrors] = useState<FieldMessages>({});
  const [pageSize, setPageSize] = useState(10);
  const [filters, setFilters] = useState<ModeAFilters>(NO_FILTERS);
  const [sort, setSort] = useState<SortKey>("preco");
  const [operatorOpen, setOperatorOpen] = useState(false);
  const client = useMemo(() => (config ? createVoarClient(config) : undefined), [config]);
  const { run, search, page } = useSearch(client);
  const prices = useCalendar(client);

  useEffect(() => {
    loadDemoConfig().then(setConfig, (e: unknown) => setLoadError(e instanceof Error ? e.message : String(e)));
    void Promise.all([resolveAirport(values.origem), resolveAirport(values.destino)]).then(([origem, destino]) =>
      setValues((v) => ({ ...v, origem: v.origem.text === values.origem.text ? origem : v.origem, destino: v.destino.text === values.destino.text ? destino : v.destino })),
    );
    // Once, at load: the settings, and the airports of the prefilled form.
  }, []);

  const submit = useCallback(
    async (form: SearchFormValues) => {
      const [origem, destino] = await Promise.all([resolveAirport(form.origem), resolveAirport(form.destino)]);
      const resolved = { ...form, origem, destino };
      setValues(resolved);
      const messages = validateForm(resolved, directoryOf([origem.airport, destino.airport]), new Date());
      setErrors(messages);
      const firstInvalid = FIELD_ORDER.find((f) => messages[f] !== undefined);
      if (firstInvalid) {
        document.getElementById(`campo-${firstInvalid}`)?.focus();
        return;
      }
      // A new search starts without filters (its airlines and times differ), in the order the person chose.
      setFilters(NO_FILTERS);
      const request = requestOf(resolved, { pageSize });
      search(request.Companhia === -1 ? withView(request, NO_FILTERS, sort) : request);
      const calendar = calendarRequestOf(resolved);
      if (calendar) prices.start(calendar);
      else prices.clear();
      // On a phone the results start below the form: bring the progress into view.
      requestAnimationFrame(() => {
        const area = document.getElementById("resultados");
        if (area && area.getBoundingClientRect().top > window.innerHeight * 0.8) area.scrollIntoView({ behavior: "smooth", block: "start" });
      });
    },
    [search, prices, pageSize, sort],
  );

  /** A day of the calendar clicked: its results, the same search the calendar ran for it (the calendar stays). */
  const openDay = (day: { readonly Data: string; readonly Volta?: string | undefined }) => {
    // The day's return when the calendar is of round trips; else the form's return moves with the departure.
    const moved = withIda(values, day.Data);
    const next = day.Volta ? { ...moved, volta: day.Volta } : moved;
    setValues(next);
    setFilters(NO_FILTERS);
    const request = requestOf(next, { pageSize });
    search(request.Companhia === -1 ? withView(request, NO_FILTERS, sort) : request);
  };

  const onPage = (n: number) => {
    if (!run) return;
    page({ ...run.request, NumeroPagina: n });
    // The pagination is below the rows: the next page starts at the top of the results, not where the person clicked.
    const results = document.querySelector<HTMLElement>(".results");
    if (results && results.getBoundingClientRect().top < 0) {
      const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      results.scrollIntoView({ behavior: smooth ? "smooth" : "auto", block: "start" });
    }
  };
  const onView = (f: ModeAFilters, s: SortKey) => {
    setFilters(f);
    setSort(s);
    if (run) page(withView(run.request, f, s));
  };
  const onPageSize = (size: number) => {
    setPageSize(size);
    if (run) page({ ...run.request, NumeroPagina: 1, QuantidadePorPagina: size });
  };

  return (
    <>
      <a class="skip-link" href="#conteudo">
        Pular para o conteúdo
      </a>
      <AppHeader config={config} operatorOpen={operatorOpen} onOperator={() => setOperatorOpen(!operatorOpen)} />
      <main id="conteudo" class="container">
        {loadError ? (
          <div class="banner banner--error" role="alert">
            Não foi possível carregar a configuração da demonstração ({loadError}). O servidor está rodando?
          </div>
        ) : null}
        {operatorOpen && config ? (
          <OperatorPanel apiBaseUrl={config.apiBaseUrl} demoAdminKey={config.adminKey} onSearchAgain={run ? () => search({ ...run.request, NumeroPagina: 1 }) : undefined} />
        ) : null}
        <SearchForm values={values} errors={errors} busy={run?.status === "running"} served={config?.companhias} onChange={setValues} onSubmit={() => void submit(values)} />
        {prices.calendar ? <CalendarStrip calendar={prices.calendar} selected={run?.request.Ida} onOpen={openDay} /> : null}
        {prices.calendar ? <AlertControl calendar={prices.calendar} client={client} config={config} /> : null}
        {run ? <ResultsArea run={run} backend={config?.backend} onPage={onPage} onPageSize={onPageSize} filters={filters} sort={sort} onView={onView} /> : <Intro />}
        {config ? <DeveloperPanel config={config} request={run?.request ?? requestOf(values, { pageSize })} searched={run !== undefined} /> : null}
      </main>
      <footer class="app-footer container">
        <p class="muted">
          Voar · demonstração local. Companhias reais, voos e agências do simulador são fictícios; os sites <code>.example</code> não existem.
        </p>
      </footer>
    </>
  );
};
