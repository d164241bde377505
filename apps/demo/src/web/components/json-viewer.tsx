import { useState } from "preact/hooks";

/**
 * A value's JSON one click away, rendered only while open (an envelope can be large). A copy button puts
 * it on the clipboard for a bug report or a test fixture.
 */
export const JsonBlock = ({ label, value }: { readonly label: string; readonly value: unknown }) => {
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  const text = open ? JSON.stringify(value, null, 2) : "";
  return (
    <details class="json" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{label}</summary>
      {open ? (
        <div class="json__body">
          <button
            type="button"
            class="button button--small json__copy"
            onClick={() => {
              void navigator.clipboard?.writeText(text).then(
                () => setCopied(true),
                () => setCopied(false),
              );
            }}
          >
            {copied ? "Copiado" : "Copiar"}
          </button>
          <pre data-testid="json">{text}</pre>
        </div>
      ) : null}
    </details>
  );
};
