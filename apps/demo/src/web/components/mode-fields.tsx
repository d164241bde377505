import { AIRLINES } from "@voar/core";
import { airlineLabel } from "../format/airline-label.js";
import type { SearchFormValues, SearchModeChoice } from "../search/search-form-model.js";
import { FieldError } from "./field-error.js";

const MODES: readonly { readonly id: SearchModeChoice; readonly label: string; readonly hint: string }[] = [
  { id: "todas", label: "Todas as companhias", hint: "preços e milhas, agrupados por preço" },
  { id: "otas", label: "Comparar agências", hint: "a melhor oferta entre as OTAs" },
  { id: "companhia", label: "Uma companhia", hint: "só os voos dela" },
];

interface ModeFieldsProps {
  readonly values: Pick<SearchFormValues, "modo" | "companhia">;
  /** The Companhia ids the deployment has a source for; undefined while unknown. */
  readonly served?: readonly number[] | undefined;
  readonly error?: string | undefined;
  readonly onChange: (values: Pick<SearchFormValues, "modo" | "companhia">) => void;
}

/** The search mode: all airlines (Mode A), the OTA comparison (Mode B), or one airline. */
export const ModeFields = ({ values, served, error, onChange }: ModeFieldsProps) => (
  <fieldset class="modes">
    <legend>O que buscar</legend>
    <div class="segmented">
      {MODES.map((m) => (
        <label key={m.id} class={values.modo === m.id ? "segmented__option is-checked" : "segmented__option"}>
          <input type="radio" name="modo" value={m.id} checked={values.modo === m.id} onChange={() => onChange({ ...values, modo: m.id })} />
          <span class="segmented__label">{m.label}</span>
          <span class="segmented__hint">{m.hint}</span>
        </label>
      ))}
    </div>
    {values.modo === "companhia" ? (
      <div class="field field--inline">
        <label for="campo-companhia">Companhia</label>
        <select id="campo-companhia" value={values.companhia} onChange={(e) => onChange({ ...values, companhia: Number(e.currentTarget.value) })}>
          {AIRLINES.map((a) => (
            <option key={a.id} value={a.id}>
              {airlineLabel(a)}
              {served && !served.includes(a.id) ? " · sem fonte nesta demonstração" : ""}
            </option>
          ))}
        </select>
      </div>
    ) : null}
    <FieldError id="campo-modo-erro" message={error} />
  </fieldset>
);
