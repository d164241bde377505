import { parseSearchRequest, search, snapshotToEnvelope } from "@voar/core";
import { airports } from "@voar/core/airports";
import { createSimulator } from "@voar/testing/simulator";
import { lastValueFrom, tap } from "rxjs";

// A request as the wire writes it, 30 days from now; parseSearchRequest checks it and names any bad field.
const ida = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const parsed = parseSearchRequest({ Origem: "CNF", Destino: "SDU", Ida: ida }, { airports, now: new Date() });
if (parsed.kind !== "query") throw new Error(`invalid request: ${JSON.stringify(parsed)}`);

// Every airline of the embedded simulator at once; a snapshot after each change, the last one completed.
const final = await lastValueFrom(
  search(parsed.query, createSimulator({ latencyMs: 300 }).sources).pipe(
    tap((snapshot) => {
      const { body } = snapshotToEnvelope(snapshot, { searchId: "quick-start", requestId: "r1", page: 1, pageSize: 10, airports });
      console.log(`version ${snapshot.version}: ${body.Progresso?.FontesConcluidas}/${body.Progresso?.FontesTotal} sources, ${body.TotalItens} price groups`);
    }),
  ),
);
if (!final.completed || final.offers.size === 0) throw new Error("the search should complete with offers");
