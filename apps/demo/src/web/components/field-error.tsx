/** The message under a field the API (or the form) refused; linked to it by `aria-describedby`. */
export const FieldError = ({ id, message }: { readonly id: string; readonly message?: string | undefined }) =>
  message ? (
    <p id={id} class="field-error" role="alert">
      {message}
    </p>
  ) : null;

/** The `aria-*` attributes of a field that may carry an error. */
export const errorAttributes = (id: string, message: string | undefined) =>
  message ? { "aria-invalid": true as const, "aria-describedby": id } : {};
