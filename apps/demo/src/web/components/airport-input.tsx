import { useEffect, useRef, useState } from "preact/hooks";
import type { AirportSuggestion } from "../../shared/demo-config.js";
import { searchAirports } from "../api/airports.js";
import type { AirportFieldValue } from "../search/search-form-model.js";
import { errorAttributes, FieldError } from "./field-error.js";

interface AirportInputProps {
  readonly id: string;
  readonly label: string;
  readonly value: AirportFieldValue;
  readonly onChange: (value: AirportFieldValue) => void;
  readonly error?: string | undefined;
}

/** What the field shows once an airport is picked. */
export const airportLabel = (a: AirportSuggestion): string => `${a.city} (${a.iata})`;

/**
 * An airport field with autocomplete by code, city or name (the ARIA combobox pattern: arrows move, Enter
 * picks, Escape closes). Typing three letters is enough: the form resolves the code when it is sent.
 */
export const AirportInput = ({ id, label, value, onChange, error }: AirportInputProps) => {
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<readonly AirportSuggestion[]>([]);
  const [active, setActive] = useState(-1);
  const closing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const listId = `${id}-sugestoes`;
  const errorId = `${id}-erro`;

  useEffect(() => {
    if (!open || value.airport) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchAirports(value.text, controller.signal).then(
        (found) => {
          setOptions(found);
          setActive(found.length > 0 ? 0 : -1);
        },
        () => {
          // Aborted by the next keystroke, or the server is gone: either way there is nothing to suggest.
          if (!controller.signal.aborted) setOptions([]);
        },
      );
    }, 120);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [value.text, value.airport, open]);

  const pick = (airport: AirportSuggestion) => {
    onChange({ text: airportLabel(airport), airport });
    setOpen(false);
  };
  const expanded = open && options.length > 0 && !value.airport;

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setOpen(true);
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (options.length === 0 ? -1 : (i + step + options.length) % options.length));
    } else if (e.key === "Enter" && expanded && active >= 0) {
      e.preventDefault();
      const chosen = options[active];
      if (chosen) pick(chosen);
    } else if (e.key === "Escape") {
      setOpen(false);
    }
  };

  return (
    <div class="field airport">
      <label for={id}>{label}</label>
      <input
        id={id}
        type="text"
        role="combobox"
        autocomplete="off"
        spellcheck={false}
        placeholder="Cidade, aeroporto ou código"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        value={value.text}
        onInput={(e) => {
          onChange({ text: e.currentTarget.value });
          setOpen(true);
        }}
        onFocus={(e) => {
          clearTimeout(closing.current);
          e.currentTarget.select();
        }}
        onBlur={() => (closing.current = setTimeout(() => setOpen(false), 150))}
        onKeyDown={onKeyDown}
        {...errorAttributes(errorId, error)}
      />
      <ul id={listId} role="listbox" class="airport__options" hidden={!expanded} aria-label={`Sugestões para ${label.toLowerCase()}`}>
        {options.map((a, i) => (
          <li
            key={a.iata}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            class={i === active ? "is-active" : undefined}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(a)}
          >
            <span class="airport__code">{a.iata}</span>
            <span class="airport__place">
              <strong>{a.city}</strong>
              <span>
                {a.name} · {a.country}
              </span>
            </span>
          </li>
        ))}
      </ul>
      {value.airport && !error ? <p class="field-hint">{value.airport.name}</p> : null}
      <FieldError id={errorId} message={error} />
    </div>
  );
};
