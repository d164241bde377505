import { map, type Observable } from "rxjs";
import { parseSearchRequest, search, snapshotToEnvelope, type ErrorEnvelope, type FieldError, type ModeAEnvelope, type ModeBEnvelope } from "@voar/core";
import { airports } from "@voar/core/airports";
import { createSimulator } from "@voar/testing/simulator";

/** Any answer of the search endpoint. */
export type AnyEnvelope = ModeAEnvelope | ModeBEnvelope | ErrorEnvelope;

/** A search about to run, or the fields that keep it from running. */
export type PreparedSearch =
  | { readonly kind: "invalid"; readonly campos: readonly FieldError[] }
  | { readonly kind: "ready"; readonly answers$: Observable<AnyEnvelope> };

/**
 * Runs a search in-process on the embedded simulator: the same validation, engine and envelope as the
 * HTTP service, one envelope per snapshot.
 */
export const prepareLocalSearch = (body: Record<string, unknown>, options: { seed?: number; now?: Date } = {}): PreparedSearch => {
  const parsed = parseSearchRequest(body, { airports, now: options.now ?? new Date() });
  if (parsed.kind === "invalid") return { kind: "invalid", campos: parsed.campos };
  if (parsed.kind === "poll") return { kind: "invalid", campos: [{ Campo: "Token", Mensagem: "A CLI inicia buscas; use origem, destino e data." }] };
  const simulator = createSimulator(options.seed === undefined ? {} : { seed: options.seed });
  const searchId = `cli-${Date.now().toString(36)}`;
  let n = 0;
  const answers$ = search(parsed.query, simulator.sources).pipe(
    map((s) => snapshotToEnvelope(s, { searchId, requestId: `${searchId}-${++n}`, page: parsed.page, pageSize: parsed.pageSize, airports, view: parsed.view }).body as AnyEnvelope),
  );
  return { kind: "ready", answers$ };
};
