import { Miniflare } from "miniflare";
import { readFileSync } from "node:fs";
const mf = new Miniflare({ modules: true, script: readFileSync("dist/workerd.js", "utf8"), compatibilityDate: "2024-09-23",
  bindings: { VOAR_API_KEYS: "contract:contract-api-key-0123456789", VOAR_SIMULATOR_LATENCY_MS: "300", VOAR_RATE_LIMIT_CAPACITY: "100000", VOAR_RATE_LIMIT_REFILL_PER_SECOND: "100000" } });
const url = await mf.ready;
console.log("url", String(url));
let r = await fetch(new URL("/health", url)); console.log(r.status, await r.text());
const ida = new Date(Date.now() + 20 * 864e5).toISOString().slice(0, 10);
const post = (body) => fetch(new URL("/api/ConsultaAereo/Consultar", url), { method: "POST", headers: { Authorization: "Bearer contract-api-key-0123456789", "content-type": "application/json" }, body: JSON.stringify(body) }).then(async (r) => [r.status, await r.json()]);
let [s, b] = await post({ Origem: "CNF", Destino: "GRU", Ida: ida });
console.log(s, b.Completed, b.TotalItens, b.Erro, b.Token);
for (let i = 0; i < 10; i++) { await new Promise((r) => setTimeout(r, 200)); [s, b] = await post({ Token: b.Token }); console.log(s, b.Completed, b.TotalItens, b.Progresso?.Versao); if (b.Completed) break; }
await mf.dispose();
