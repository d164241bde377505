import { FLEXIBLE_DAYS, withIda, withRoundTrip, type FieldMessages, type SearchFormValues } from "../search/search-form-model.js";
import { AirportInput } from "./airport-input.js";
import { errorAttributes, FieldError } from "./field-error.js";
import { ModeFields } from "./mode-fields.js";
import { PassengerFields } from "./passenger-fields.js";

interface SearchFormProps {
  readonly values: SearchFormValues;
  readonly errors: FieldMessages;
  readonly busy: boolean;
  /** The Companhia ids the deployment has a source for (`companhias` of the demo's settings). */
  readonly served?: readonly number[] | undefined;
  readonly onChange: (values: SearchFormValues) => void;
  readonly onSubmit: () => void;
}

/** The search form: airports with autocomplete, dates, passengers and mode. */
export const SearchForm = ({ values, errors, busy, served, onChange, onSubmit }: SearchFormProps) => {
  const set = <K extends keyof SearchFormValues>(key: K, value: SearchFormValues[K]) => onChange({ ...values, [key]: value });
  const swap = () => onChange({ ...values, origem: values.destino, destino: values.origem });
  return (
    <form
      class="card search-form"
      aria-labelledby="busca-titulo"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <h2 id="busca-titulo" class="card__title">
        Buscar voos
      </h2>
      <div class="search-form__route">
        <AirportInput id="campo-origem" label="Origem" value={values.origem} error={errors.origem} onChange={(v) => set("origem", v)} />
        <button type="button" class="icon-button swap" onClick={swap} aria-label="Trocar origem e destino" title="Trocar origem e destino">
          ⇄
        </button>
        <AirportInput id="campo-destino" label="Destino" value={values.destino} error={errors.destino} onChange={(v) => set("destino", v)} />
      </div>

      <fieldset class="dates">
        <legend>Datas</legend>
        <div class="trip-type">
          <label>
            <input type="radio" name="viagem" checked={!values.roundTrip} onChange={() => onChange(withRoundTrip(values, false))} /> Só ida
          </label>
          <label>
            <input type="radio" name="viagem" checked={values.roundTrip} onChange={() => onChange(withRoundTrip(values, true))} /> Ida e volta
          </label>
        </div>
        <div class="dates__row">
          <div class="field">
            <label for="campo-ida">Ida</label>
            <input id="campo-ida" type="date" value={values.ida} onInput={(e) => onChange(withIda(values, e.currentTarget.value))} {...errorAttributes("campo-ida-erro", errors.ida)} />
            <FieldError id="campo-ida-erro" message={errors.ida} />
          </div>
          {values.roundTrip ? (
            <div class="field">
              <label for="campo-volta">Volta</label>
              <input
                id="campo-volta"
                type="date"
                min={values.ida}
                value={values.volta}
                onInput={(e) => set("volta", e.currentTarget.value)}
                {...errorAttributes("campo-volta-erro", errors.volta)}
              />
              <FieldError id="campo-volta-erro" message={errors.volta} />
            </div>
          ) : null}
          {values.modo !== "otas" ? (
            <div class="field">
              <label for="campo-calendario">Calendário de preços</label>
              <select
                id="campo-calendario"
                aria-describedby="campo-calendario-dica"
                value={values.diasFlexiveis}
                onChange={(e) => set("diasFlexiveis", Number(e.currentTarget.value))}
              >
                {FLEXIBLE_DAYS.map((n) => (
                  <option key={n} value={n}>
                    {n === 0 ? "Nenhum" : `±${n} dias`}
                  </option>
                ))}
              </select>
              <p id="campo-calendario-dica" class="field-hint">
                {values.diasFlexiveis === 0 ? "só o dia da ida" : `${2 * values.diasFlexiveis + 1} dias em volta da ida`}
              </p>
            </div>
          ) : null}
        </div>
      </fieldset>

      <PassengerFields values={values} errors={errors} onChange={(key, value) => set(key, value)} />
      <ModeFields values={values} served={served} error={errors.modo} onChange={(v) => onChange({ ...values, ...v })} />

      <div class="search-form__actions">
        <button type="submit" class="button button--primary">
          {busy ? "Buscar de novo" : "Buscar voos"}
        </button>
      </div>
    </form>
  );
};
