/**
 * `voar alerta` against a Voar service in process (its price alerts worker driven by the test): create a watch,
 * list it, see it with its deliveries once an alert went out, delete it; a refused request says why.
 */
import { addDays, todayInSaoPaulo } from "@voar/core";
import { createApp, defineConfig, priceAlerts, silentLogger, type PriceAlerts } from "@voar/hono-edge";
import { createSimulator } from "@voar/testing/simulator";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";

const KEY = "demo-api-key-voar-0001";

describe("voar alerta", () => {
  it("creates, lists, shows (with deliveries) and deletes a price alert; a refusal says why", async () => {
    let alerts: PriceAlerts | undefined;
    const feature = priceAlerts({ timer: false, post: () => Promise.resolve({ status: 204 }) });
    const config = defineConfig({ apiKeys: [{ name: "demo", key: KEY }], alerts: { webhooks: { allowPrivateAddresses: true } } });
    const app = createApp({ config, sources: createSimulator({ latencyMs: 10 }).sources, logger: silentLogger, priceAlerts: { ...feature, start: (d, s) => (alerts = feature.start(d, s)) } });
    const run = async (args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(["alerta", ...args], {
        out: { write: (s: string) => out.push(s), isTTY: false },
        err: { write: (s: string) => err.push(s) },
        env: { NO_COLOR: "1" },
        alerts: { fetch: (input, init) => Promise.resolve(app.request(String(input), init)) },
      });
      return { code, out: out.join(""), err: err.join("") };
    };
    const ida = addDays(todayInSaoPaulo(new Date()), 30);
    const created = await run(["criar", "GRU", "SSA", ida, "--dias", "1", "--teto-valor", "5000", "--webhook", "http://127.0.0.1:9/alertas", "--referencia", "cliente-1"]);
    expect(created.err).toBe("");
    expect(created.code).toBe(0);
    expect(created.out).toContain("Alerta criado.");
    expect(created.out).toContain(`GRU → SSA  ${addDays(ida, -1)} a ${addDays(ida, 1)}`);
    const id = /alr_\w+/.exec(created.out)![0];
    expect((await run(["listar"])).out).toContain(id);
    const pending = (out: string) => out.includes("nenhuma entrega") || out.includes("pendente");
    for (let i = 0; i < 40 && pending((await run(["ver", id])).out); i++) {
      await alerts!.tick();
      await alerts!.idle();
    }
    const shown = await run(["ver", id]);
    expect(shown.out).toMatch(/menor visto: R\$\s[\d.,]+ em \d{4}-\d{2}-\d{2}/);
    expect(shown.out).toMatch(/entregas:\n {2}msg_\w+ \d{4}-\d{2}-\d{2} entregue após 1 tentativa/);
    expect((await run(["apagar", id])).out).toBe(`Alerta ${id} apagado.\n`);
    expect((await run(["listar"])).out).toBe("Nenhum alerta.\n");
    const refused = await run(["criar", "GRU", "GRU", ida]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("Destino deve ser diferente de Origem");
  });
});
