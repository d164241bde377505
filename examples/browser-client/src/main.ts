import type { ModeAEnvelope } from "@voar/core";
import { createClient, type Envelope } from "@voar/http-adapter/fetch";
import type { Subscription } from "rxjs";

// The browser build of the client: fetch and Web streams only. The page's own server serves the API at /api;
// a real page would get its credential from its own login (see the hono-mount example), not from its source.
const client = createClient({ baseUrl: `${location.origin}/api`, token: "browser-example-key-0123456789" });

/** Mode A (every airline) and Mode B (agencies, one airline) answers differ: narrow on what Data holds. */
const isModeA = (e: Envelope): e is ModeAEnvelope => e.Data[0] !== undefined && "flights" in e.Data[0];

const form = document.querySelector<HTMLFormElement>("#search")!;
const status = document.querySelector<HTMLParagraphElement>("#status")!;
const results = document.querySelector<HTMLOListElement>("#results")!;
const brl = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });
let running: Subscription | undefined;
let envelopes = 0;

const show = (e: Envelope) => {
  envelopes++;
  const p = e.Progresso;
  status.textContent = `${p?.FontesConcluidas}/${p?.FontesTotal} fontes · ${e.TotalItens} grupos${e.Completed ? " · concluída" : "…"}`;
  status.dataset["state"] = e.Completed ? "completed" : "running";
  status.dataset["envelopes"] = String(envelopes);
  status.dataset["total"] = String(e.TotalItens);
  if (!isModeA(e)) return;
  results.replaceChildren(
    ...e.Data[0]!.flights.map((f) => {
      const li = document.createElement("li");
      li.textContent = `${f.validatingBy.name}: ${brl.format(f.fareGroup.priceWithTax)}`;
      return li;
    }),
  );
};

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const data = new FormData(form);
  // A new search replaces the one on screen: unsubscribing aborts its stream (and the server's work for this client).
  running?.unsubscribe();
  envelopes = 0;
  running = client.search$({ Origem: String(data.get("origem")), Destino: String(data.get("destino")), Ida: String(data.get("ida")), QuantidadePorPagina: 5 }).subscribe({
    next: show,
    error: (error: unknown) => {
      status.dataset["state"] = "failed";
      status.textContent = `Falhou: ${error instanceof Error ? error.message : String(error)}`;
    },
  });
});

// Thirty days ahead by default.
form.querySelector<HTMLInputElement>("[name=ida]")!.value = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
