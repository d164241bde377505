import { CalendarEnvelopeSchema } from "@voar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.js";

const run = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const done = main(args, { out: { write: (s: string) => out.push(s), isTTY: false }, err: { write: (s: string) => err.push(s) }, env: { NO_COLOR: "1" } });
  await vi.runAllTimersAsync();
  return { code: await done, out: out.join(""), err: err.join("") };
};

beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2026-11-22T12:00:00Z"), toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
});
afterEach(() => vi.useRealTimers());

describe("voar calendario", () => {
  it("prints a line as days complete, then one row per day: the day asked, cash and miles, the cheapest marked", async () => {
    const { code, out, err } = await run(["calendario", "GRU", "SSA", "+30", "--dias", "3"]);
    expect(err).toBe("");
    expect(code).toBe(0);
    const [progress, table] = out.split("\n\n");
    const lines = progress!.split("\n");
    expect(lines[0]).toMatch(/^Calendário: 0 de 7 dias$/);
    expect(lines.at(-1)).toMatch(/^Calendário: 7 de 7 dias, menor até agora R\$\s[\d.,]+$/);
    expect(table).toContain("ter., 22 de dez. │ pedido");
    expect(table!.match(/★/g)).toHaveLength(2 + 1); // the cheapest cash day, the cheapest miles day, and the note
    expect(table).toMatch(/sáb\., 19 de dez\.[^\n]*R\$\s\d/);
  });

  it("--json prints the final answer, as the API writes it", async () => {
    const { code, out } = await run(["calendario", "GRU", "SSA", "2026-12-20", "--dias", "1", "--volta", "+35", "--json"]);
    expect(code).toBe(0);
    const answer = CalendarEnvelopeSchema.parse(JSON.parse(out));
    expect(answer).toMatchObject({ Completed: true, TotalItens: 3 });
    expect(answer.Data.map((d) => [d.Data, d.Volta])).toEqual([
      ["2026-12-19", "2026-12-26"],
      ["2026-12-20", "2026-12-27"],
      ["2026-12-21", "2026-12-28"],
    ]);
  });

  it("--dias-volta: a grid of every departure by every return, one row each", async () => {
    const { code, out } = await run(["calendario", "GRU", "SSA", "2026-12-20", "--volta", "2026-12-27", "--dias", "1", "--dias-volta", "1", "--json"]);
    expect(code).toBe(0);
    const answer = CalendarEnvelopeSchema.parse(JSON.parse(out));
    expect(answer.TotalItens).toBe(9);
    expect(new Set(answer.Data.map((d) => d.Volta))).toEqual(new Set(["2026-12-26", "2026-12-27", "2026-12-28"]));
    expect((await run(["calendario", "GRU", "SSA", "+30", "--dias-volta", "2"])).err).toContain("--dias-volta 2: move a data de volta: informe também --volta");
  });

  it("names the flag of a bad argument and what was given, in Portuguese and in the CLI's terms", async () => {
    const { code, err } = await run(["calendario", "GRU", "SSA", "+30", "--dias", "9"]);
    expect(code).toBe(2);
    expect(err).toBe("Calendário inválido:\n  --dias 9: deve ser um número inteiro entre 1 e 7.\n");
    const grid = await run(["calendario", "GRU", "SSA", "+30", "--volta", "+37", "--dias-volta", "5"]);
    expect(grid.err).toBe("Calendário inválido:\n  --dias-volta 5: deve ser um número inteiro entre 1 e 3.\n");
    const modes = "a (todas as companhias) ou uma companhia: latam, gol, azul, tap, copa, american, iberia (ou o id dela); a comparação entre agências (b) não tem calendário";
    expect((await run(["calendario", "GRU", "SSA", "+30", "--modo", "b"])).err).toBe(`Calendário inválido:\n  --modo b: não é um modo desta busca; use ${modes}.\n`);
    expect((await run(["calendario", "GRU", "SSA", "+30", "--modo", "x"])).err).toBe(`Calendário inválido:\n  --modo x: não é um modo desta busca; use ${modes}.\n`);
    for (const { err: e } of [await run(["calendario", "GRU", "SSA", "+30", "--dias", "9"]), grid]) expect(e).not.toMatch(/DiasFlexiveis|Companhia/);
  });
});
