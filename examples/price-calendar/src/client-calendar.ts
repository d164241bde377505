import { strict as assert } from "node:assert";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { CalendarEnvelope } from "@voar/core";
import { createApp, defineConfig, priceCalendar, silentLogger } from "@voar/hono-edge";
import { createClient } from "@voar/http-adapter";
import { createSimulator } from "@voar/testing/simulator";
import { lastValueFrom, tap, toArray } from "rxjs";

const API_KEY = "example-api-key-0123456789";

/** The service's calendar through the typed client: days filling in over SSE, then the cheapest day's results by its Token. */
export const clientCalendar = async (ida: string): Promise<void> => {
  const shutdown = new AbortController();
  const config = defineConfig({ apiKeys: [{ name: "example", key: API_KEY }], search: { pollHintMs: 100 } });
  // The price calendar is a feature of the app: given, the app serves POST /ConsultaAereo/Calendario.
  const app = createApp({ config, sources: createSimulator({ latencyMs: 300 }).sources, logger: silentLogger, signal: shutdown.signal, priceCalendar: priceCalendar() });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  try {
    const client = createClient({ baseUrl, token: API_KEY });
    // One envelope per change of the calendar (a day started, a source of a day answered), over SSE; the last has Completed: true.
    let shown = "";
    const envelopes: CalendarEnvelope[] = await lastValueFrom(
      client.calendar$({ Origem: "GRU", Destino: "SSA", Ida: ida, DiasFlexiveis: 3 }).pipe(
        tap((e) => {
          const line = `${e.Progresso.DiasConcluidos}/${e.Progresso.DiasTotal} days: ${e.Data.map((d) => d.MenorValor ?? "…").join(" ")}`;
          if (line !== shown) console.log((shown = line));
        }),
        toArray(),
      ),
    );
    const final = envelopes.at(-1)!;
    // The cheapest day in cash, and its results: the day's ordinary search, already run (TokenBusca).
    const cheapest = final.Data.filter((d) => d.MenorValor !== null).sort((a, b) => a.MenorValor! - b.MenorValor!)[0]!;
    const results = await client.searchAll({ Origem: "GRU", Destino: "SSA", Ida: cheapest.Data, QuantidadePorPagina: 100 });
    assert.equal(final.Completed, true);
    assert.ok(envelopes.length > 1, "the calendar arrived in several envelopes");
    assert.equal(results.Token, cheapest.TokenBusca, "the day's query joins the search the calendar ran for it");
    const prices = (results.Data[0] as { flights: { fareGroup: { priceWithTax: number }; segments: { PontosAdulto: number }[] }[] }).flights;
    const cash = Math.min(...prices.filter((f) => f.segments[0]!.PontosAdulto < 0).map((f) => f.fareGroup.priceWithTax));
    assert.equal(cash, cheapest.MenorValor, "the day's MenorValor is its search's cheapest cash fare");
    console.log(`  ✓ client: ${envelopes.length} envelopes; cheapest day ${cheapest.Data} at R$ ${cheapest.MenorValor}, its search's cheapest`);
  } finally {
    shutdown.abort();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
};
