import type { ModeBEnvelope } from "@voar/core";
import { describe, expect, it } from "vitest";
import { cliCommand } from "../../src/web/search/cli-command.js";
import { comparisonRows } from "../../src/web/search/comparison-rows.js";
import { localEnvelopes } from "../support/local-envelopes.js";

describe("the OTA comparison of a flight", () => {
  it("lists the best offer first, then the other agencies from cheapest to dearest, none cheaper than the best", async () => {
    const final = (await localEnvelopes({ Origem: "CNF", Destino: "SDU", Ida: "2026-12-20", Companhia: 1300 })).at(-1) as ModeBEnvelope;
    const offer = final.Data[0]!.Ida.find((o) => (o.Outros?.length ?? 0) > 1)!;
    const rows = comparisonRows(offer);
    expect(rows).toHaveLength(offer.Outros!.length + 1);
    expect(rows[0]).toMatchObject({ nome: offer.Nome, valor: offer.ValorTotalComTaxa, url: offer.UrlPesquisa, best: true });
    const others = rows.slice(1).map((r) => r.valor);
    expect(others).toEqual([...others].sort((a, b) => a - b));
    expect(others.every((v) => v >= offer.ValorTotalComTaxa)).toBe(true);
  });
});

describe("the same search on the command line", () => {
  it("writes the CLI's flags for the request's mode and passengers", () => {
    const base = { Origem: "CNF", Destino: "SDU", Ida: "2026-12-20" };
    expect(cliCommand(base, "http://localhost:8787/api", "k")).toBe("npx -y pnpm@10.34.9 -s voar search CNF SDU 2026-12-20 --base-url http://localhost:8787/api --token k");
    expect(cliCommand({ ...base, Volta: "2026-12-27", Companhia: 1300, Adultos: 2, Criancas: 1, Bebes: 1 }, "u", "k")).toBe(
      "npx -y pnpm@10.34.9 -s voar search CNF SDU 2026-12-20 --volta 2026-12-27 --modo b --adultos 2 --criancas 1 --bebes 1 --base-url u --token k",
    );
    expect(cliCommand({ ...base, Companhia: 3 }, "u", "k")).toContain("--modo 3");
  });
});
