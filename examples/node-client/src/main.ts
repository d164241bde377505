import { strict as assert } from "node:assert";
import { createClient, type Envelope, type FetchLike, type SearchRequest } from "@voar/http-adapter";
import { lastValueFrom, tap, toArray } from "rxjs";
import { API_KEY, startService } from "./start-service.js";

const service = await startService();
const ida = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
/** Every request the client makes, as `<status> <route>`: what went over the wire. */
const wire: string[] = [];
const recording: FetchLike = async (input, init) => {
  const response = await fetch(input, init);
  wire.push(`${response.status} ${new URL(String(input)).pathname.replace(/^.*\/ConsultaAereo\//, "")}`);
  return response;
};
const progress = (e: Envelope) => `v${e.Progresso?.Versao} ${e.Progresso?.FontesConcluidas}/${e.Progresso?.FontesTotal} sources, ${e.TotalItens} groups${e.Completed ? ", completed" : ""}`;

try {
  // Over SSE: one request, one envelope per snapshot of the search, the last with Completed: true.
  const client = createClient({ baseUrl: service.baseUrl, token: API_KEY, transport: "sse", fetch: recording });
  const request: SearchRequest = { Origem: "CNF", Destino: "SDU", Ida: ida, QuantidadePorPagina: 20 };
  const streamed = await lastValueFrom(client.search$(request).pipe(tap((e) => console.log("sse ", progress(e))), toArray()));
  assert.deepEqual(wire, ["200 Stream"], "the SSE client made one request");
  const versions = streamed.map((e) => e.Progresso!.Versao);
  assert.ok(versions.every((v, i) => i === 0 || v > versions[i - 1]!), "each streamed envelope is a newer version");
  assert.equal(streamed.at(-1)!.Completed, true);
  assert.ok(streamed.at(-1)!.TotalItens > 0);
  console.log(`  ✓ SSE: ${streamed.length} envelopes on 1 request, versions ${versions.join(" < ")}, completed with ${streamed.at(-1)!.TotalItens} groups`);

  // By polling, as an async iterator: conditional polls (If-None-Match) at the service's pace; a 304 yields nothing.
  wire.length = 0;
  const poller = createClient({ baseUrl: service.baseUrl, token: API_KEY, transport: "poll", fetch: recording });
  const polled: Envelope[] = [];
  for await (const envelope of poller.search({ Origem: "CNF", Destino: "GIG", Ida: ida })) {
    console.log("poll", progress(envelope));
    polled.push(envelope);
  }
  assert.ok(wire.every((w) => w.endsWith("Consultar")), "the polling client only asked Consultar");
  const unchanged = wire.filter((w) => w.startsWith("304")).length;
  assert.ok(unchanged > 0, "a poll of a search that had not changed was answered 304");
  assert.equal(polled.length, wire.length - unchanged, "every 200 yielded one envelope, no 304 did");
  assert.equal(polled.at(-1)!.Completed, true);
  console.log(`  ✓ polling: ${wire.length} requests, ${unchanged} of them 304 Not Modified; ${polled.length} envelopes, completed with ${polled.at(-1)!.TotalItens} groups`);

  // transport "auto" (the default) follows the stream when the server has one, and polls when it answers 404/405:
  // here a server without the stream (an older deployment, a proxy that drops it), as a Promise of the final envelope.
  wire.length = 0;
  const withoutStream: FetchLike = (input, init) =>
    String(input).endsWith("/ConsultaAereo/Stream") ? Promise.resolve(new Response(null, { status: 404 })) : recording(input, init);
  const auto = createClient({ baseUrl: service.baseUrl, token: API_KEY, fetch: withoutStream });
  const final = await auto.searchAll({ Origem: "GRU", Destino: "LIS", Ida: ida, Companhia: 1300 });
  assert.equal(final.Completed, true);
  assert.ok(wire.length > 0 && wire.every((w) => w.endsWith("Consultar")), "the automatic client fell back to polling");
  console.log(`  ✓ auto without a stream: fell back to polling (${wire.length} requests), Mode B completed with ${final.TotalItens} items`);
} finally {
  await service.close();
}
