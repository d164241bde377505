// Type-checked by the pack test with tsc, once with `moduleResolution: "bundler"` and once with `"node16"`, in a
// folder where the tarballs were installed by npm: every public entry of every package resolves to its published
// declarations, and a consumer's code against them compiles (`skipLibCheck: false`: the declarations themselves too).
import { parseSearchRequest, search, snapshotToEnvelope, type SearchSnapshot } from "@voar/core";
import { airports } from "@voar/core/airports";
import { createClient, type Envelope } from "@voar/http-adapter";
import { createClient as createFetchClient } from "@voar/http-adapter/fetch";
import { createApp, defineConfig, type AppDeps } from "@voar/hono-edge";
import type * as NodeEntry from "@voar/hono-edge/node";
import { nodeDocsAssets } from "@voar/hono-edge/node-docs";
import { createPromMetrics } from "@voar/hono-edge/prom-metrics";
import { createRedisSessionStore } from "@voar/hono-edge/redis";
import worker, { SearchObject, SharedObject } from "@voar/hono-edge/workerd";
import { createFakeUpstream, loadFixture } from "@voar/testing";
import { createSimulator } from "@voar/testing/simulator";
import type { Observable } from "rxjs";

const parsed = parseSearchRequest({ Origem: "CNF", Destino: "SDU", Ida: "+30" }, { airports, now: new Date() });
if (parsed.kind === "query") {
  const snapshots: Observable<SearchSnapshot> = search(parsed.query, createSimulator({ latencyMs: 10 }).sources);
  snapshots.subscribe((s) => snapshotToEnvelope(s, { searchId: "s", requestId: "r", page: 1, pageSize: 10, airports }).body.TotalItens);
}
const config = defineConfig({ apiKeys: [{ name: "acme", key: "a-long-random-secret-0001" }] });
const deps: AppDeps = { config, sources: createSimulator().sources, docsAssets: nodeDocsAssets(), metrics: createPromMetrics() };
const app = createApp(deps);
const client = createClient({ baseUrl: "http://127.0.0.1:8787/api", token: "a-long-random-secret-0001", fetch: async (input, init) => app.request(input, init) });
const last: Promise<Envelope> = client.searchAll({ Origem: "CNF", Destino: "SDU", Ida: "+30" });
const edgeClient = createFetchClient({ baseUrl: "https://voar.example/api" });
export const used = [last, edgeClient, createRedisSessionStore, worker.fetch, SearchObject, SharedObject, createFakeUpstream, loadFixture] as const;
export type NodeEntryModule = typeof NodeEntry;
