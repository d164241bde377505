import type { FieldMessages, SearchFormValues } from "../search/search-form-model.js";
import { errorAttributes, FieldError } from "./field-error.js";

type PassengerKey = "adultos" | "criancas" | "bebes";

const FIELDS: readonly { readonly key: PassengerKey; readonly label: string; readonly hint: string; readonly min: number }[] = [
  { key: "adultos", label: "Adultos", hint: "12 anos ou mais", min: 1 },
  { key: "criancas", label: "Crianças", hint: "2 a 11 anos", min: 0 },
  { key: "bebes", label: "Bebês", hint: "até 2 anos, no colo", min: 0 },
];

interface PassengerFieldsProps {
  readonly values: Pick<SearchFormValues, PassengerKey>;
  readonly errors: FieldMessages;
  readonly onChange: (key: PassengerKey, value: number) => void;
}

/** Adults, children and infants, each a number field with the API's message under it when refused. */
export const PassengerFields = ({ values, errors, onChange }: PassengerFieldsProps) => (
  <fieldset class="passengers">
    <legend>Passageiros</legend>
    <div class="passengers__row">
      {FIELDS.map((f) => {
        const id = `campo-${f.key}`;
        const errorId = `${id}-erro`;
        return (
          <div class="field field--number" key={f.key}>
            <label for={id}>
              {f.label} <span class="field-hint-inline">{f.hint}</span>
            </label>
            <input
              id={id}
              type="number"
              inputMode="numeric"
              min={f.min}
              max={9}
              step={1}
              value={values[f.key]}
              onInput={(e) => onChange(f.key, e.currentTarget.value === "" ? Number.NaN : Number(e.currentTarget.value))}
              {...errorAttributes(errorId, errors[f.key])}
            />
            <FieldError id={errorId} message={errors[f.key]} />
          </div>
        );
      })}
    </div>
  </fieldset>
);
