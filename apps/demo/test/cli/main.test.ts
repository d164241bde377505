import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ModeAEnvelopeSchema, ModeBEnvelopeSchema } from "@voar/core";
import { main } from "../../src/cli/main.js";
import { printedEnvelope } from "../../src/cli/json-output.js";
import type { AnyEnvelope } from "../../src/cli/local-search.js";
import { otherAgencies } from "../../src/cli/result-table.js";
import { airlineSaving } from "../../src/shared/airline-saving.js";
import { formatBrl, formatPercent } from "../../src/shared/pt-br-format.js";
import { VOAR_CLI } from "../../src/shared/cli-invocation.js";
import { cliCommand } from "../../src/web/search/cli-command.js";

const capture = (env: Record<string, string | undefined>) => {
  const chunks: string[] = [];
  const errs: string[] = [];
  return {
    io: { out: { write: (s: string) => chunks.push(s), isTTY: false }, err: { write: (s: string) => errs.push(s) }, env },
    out: () => chunks.join(""),
    err: () => errs.join(""),
  };
};

/** Runs the CLI with the simulator's latencies in virtual time. */
const run = async (args: string[], env: Record<string, string | undefined> = { NO_COLOR: "1" }) => {
  const c = capture(env);
  const done = main(args, c.io);
  await vi.runAllTimersAsync();
  const code = await done;
  return { code, out: c.out(), err: c.err() };
};

beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2026-11-22T12:00:00Z"), toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("voar search", () => {
  it("prints a progress line as each source finishes, then a table of price groups", async () => {
    const { code, out } = await run(["search", "CNF", "SDU", "2026-12-20"]);
    expect(code).toBe(0);
    const [progress, table] = out.split("\n\n");
    expect(progress).toMatch(/\[ ?\d+\/\d+\] LATAM\s+concluída, \d+ itens/);
    expect(progress).toMatch(/GOL\s+concluída/);
    expect(table).toContain("Preço");
    expect(table).toMatch(/R\$\s\d/);
    expect(table).toMatch(/Página 1 de \d+ · \d+ grupos de preço/);
  });

  it("writes no ANSI code on a pipe, with or without NO_COLOR, and colors only when FORCE_COLOR asks", async () => {
    const ESC = "\u001b[";
    for (const env of [{}, { NO_COLOR: "1" }, { NO_COLOR: "1", FORCE_COLOR: "1" }]) {
      const { code, out } = await run(["search", "CNF", "SDU", "2026-12-20"], env);
      expect(code).toBe(0);
      expect(out.includes(ESC), JSON.stringify(env)).toBe(false);
    }
    expect((await run(["search", "CNF", "SDU", "2026-12-20"], { FORCE_COLOR: "1" })).out).toContain(ESC);
  });

  it("shows a round trip's miles as outbound + return points, and durations and money in pt-BR", async () => {
    const { code, out } = await run(["search", "CNF", "SDU", "2026-12-20", "--volta", "2026-12-27", "--pagamento", "milhas"]);
    expect(code).toBe(0);
    expect(out).toContain("Milhas (ida + volta)");
    expect(out).toMatch(/\d{1,3}(\.\d{3})* \+ \d{1,3}(\.\d{3})* milhas \+ R\$\s\d+,\d{2}/);
    expect(out).toMatch(/\b\d+h( \d{2}min)?\b|\b\d+min\b/);
    expect(out).not.toMatch(/\d+\.\d%/);
  });

  it("counts a round trip group's outbound and return options, some more than one, and says what a group is", async () => {
    const { code, out } = await run(["search", "CNF", "SDU", "2026-12-20", "--volta", "2026-12-27", "--por-pagina", "100"]);
    expect(code).toBe(0);
    const header = out.split("\n").find((l) => l.includes("Opções volta"))!;
    const cells = (line: string) => line.split("│").map((c) => c.trim());
    const [options, back] = [cells(header).indexOf("Opções"), cells(header).indexOf("Opções volta")];
    const rows = out.split("\n").filter((l) => /^│ \d+ /.test(l)).map(cells);
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.some((r) => Number(r[options]) > 1 || Number(r[back]) > 1)).toBe(true);
    expect(out).toContain("Opções e Opções volta contam as idas e as voltas que se combinam por exatamente esse preço.");
  });

  it("--json prints the final envelope, valid against the strict schema, completed", async () => {
    const { code, out } = await run(["search", "CNF", "SDU", "2026-12-20", "--volta", "2026-12-27", "--json"]);
    expect(code).toBe(0);
    const envelope = ModeAEnvelopeSchema.parse(JSON.parse(out));
    expect(envelope.Completed).toBe(true);
    expect(envelope.Data[0]!.flights.length).toBeGreaterThan(0);
    expect(envelope.Data[0]!.flights[0]!.segmentsBack?.length).toBeGreaterThan(0);
  });

  it("takes +N as N days from today in São Paulo, for the outbound and the return", async () => {
    // Today is 2026-11-22 in São Paulo (the fake clock): +28 is 2026-12-20, +35 is 2026-12-27.
    const relative = await run(["search", "CNF", "SDU", "+28", "--volta", "+35", "--json"]);
    const written = await run(["search", "CNF", "SDU", "2026-12-20", "--volta", "2026-12-27", "--json"]);
    expect(relative.code).toBe(0);
    const flightsOf = (out: string) => ModeAEnvelopeSchema.parse(JSON.parse(out)).Data[0]!.flights;
    expect(flightsOf(relative.out)).toEqual(flightsOf(written.out));
    expect(flightsOf(relative.out).length).toBeGreaterThan(0);
  });

  it("--paradas and --ordenar ask the search for nonstops only, shortest first, over the whole result", async () => {
    const { code, out } = await run(["search", "CNF", "SDU", "2026-12-20", "--paradas", "0", "--ordenar", "duracao", "--por-pagina", "100", "--json"]);
    expect(code).toBe(0);
    const envelope = ModeAEnvelopeSchema.parse(JSON.parse(out));
    const meta = envelope.Data[0]!.meta;
    expect(meta).toMatchObject({ Ordenacao: "duracao", Filtros: { Paradas: [0] } });
    expect(envelope.TotalItens).toBe(meta.Contagens.Paradas.find((p) => p.Key === 0)!.Value);
    expect(envelope.Data[0]!.flights.every((f) => f.segments.every((s) => s.numberOfStops === 0))).toBe(true);
  });

  it("--paradas-ida and --paradas-volta filter each leg of a round trip, with counts that add up", async () => {
    const all = ModeAEnvelopeSchema.parse(JSON.parse((await run(["search", "CNF", "SDU", "2026-12-20", "--volta", "2026-12-27", "--json"])).out));
    const counts = all.Data[0]!.meta.Contagens;
    const sum = (list: readonly { Value: number }[] | null) => (list ?? []).reduce((n, c) => n + c.Value, 0);
    expect([sum(counts.ParadasIda), sum(counts.ParadasVolta)]).toEqual([all.TotalItens, all.TotalItens]);
    const { code, out } = await run(["search", "CNF", "SDU", "2026-12-20", "--volta", "2026-12-27", "--paradas-ida", "0", "--paradas-volta", "0,1", "--por-pagina", "100", "--json"]);
    expect(code).toBe(0);
    const envelope = ModeAEnvelopeSchema.parse(JSON.parse(out));
    expect(envelope.Data[0]!.meta.Filtros).toEqual({ ParadasIda: [0], ParadasVolta: [0, 1] });
    const flights = envelope.Data[0]!.flights;
    expect(flights.every((f) => f.segments.every((s) => s.numberOfStops === 0) && f.segmentsBack!.every((s) => s.numberOfStops <= 1))).toBe(true);
    const table = await run(["search", "CNF", "SDU", "2026-12-20", "--volta", "2026-12-27", "--paradas-volta", "7"]);
    expect([table.code, table.err.includes("--paradas-volta 7:")]).toEqual([2, true]);
  });

  it("runs the command the page shows for a filtered, sorted view, and gets the same view", async () => {
    const request = {
      Origem: "CNF",
      Destino: "SDU",
      Ida: "2026-12-20",
      Volta: "2026-12-27",
      Filtros: { Paradas: [0, 1], Companhias: ["G3", "LA"], Pagamento: "milhas", Ida: { Saida: { De: "06:00", Ate: "11:59" } }, Volta: { Saida: { De: "18:00", Ate: "23:59" } } },
      Ordenacao: "melhor",
    };
    const command = cliCommand(request, "http://127.0.0.1:1/api", "k");
    expect(command.startsWith(`${VOAR_CLI} search `)).toBe(true);
    // The same flags on the embedded simulator instead of the page's service.
    const args = command.slice(VOAR_CLI.length + 1).replace(/ --base-url \S+ --token \S+$/, "").split(" ");
    const { code, out } = await run([...args, "--json"]);
    expect(code).toBe(0);
    const meta = ModeAEnvelopeSchema.parse(JSON.parse(out)).Data[0]!.meta;
    expect(meta.Filtros).toEqual(request.Filtros);
    expect(meta.Ordenacao).toBe("melhor");
  });

  it("runs the command the page shows for page 2 of 20, and gets that page", async () => {
    const command = cliCommand({ Origem: "CNF", Destino: "SDU", Ida: "2026-12-20", NumeroPagina: 2, QuantidadePorPagina: 20 }, "http://127.0.0.1:1/api", "k");
    const args = command.slice(VOAR_CLI.length + 1).replace(/ --base-url \S+ --token \S+$/, "").split(" ");
    const { code, out } = await run([...args, "--json"]);
    expect(code).toBe(0);
    expect(ModeAEnvelopeSchema.parse(JSON.parse(out)).pagination).toMatchObject({ currentPage: 2, pageSize: 20 });
  });

  it("--saida-ida keeps only outbound departures in that local-time window", async () => {
    const { code, out } = await run(["search", "CNF", "SDU", "2026-12-20", "--saida-ida", "06:00-11:59", "--por-pagina", "100", "--json"]);
    expect(code).toBe(0);
    const flights = ModeAEnvelopeSchema.parse(JSON.parse(out)).Data[0]!.flights;
    expect(flights.length).toBeGreaterThan(0);
    expect(flights.every((f) => f.segments.every((s) => s.departureDate.slice(11, 16) >= "06:00" && s.departureDate.slice(11, 16) <= "11:59"))).toBe(true);
  });

  it("a bad filter flag is named in the error", async () => {
    const { code, err } = await run(["search", "CNF", "SDU", "2026-12-20", "--paradas", "9", "--ordenar", "aleatorio", "--saida-ida", "manha"]);
    expect(code).toBe(2);
    expect(err).toContain("--paradas 9: deve ser uma lista de números de paradas: 0 (direto), 1 ou 2 (duas ou mais).");
    expect(err).toContain("--ordenar aleatorio:");
    expect(err).toContain("--saida-ida manha: deve ser uma janela de hora local, ex. 06:00-11:59 (horas de 00:00 a 23:59).");
    expect(err).not.toMatch(/Filtros|Ordenacao|"De"/);
  });

  it("--modo b --json-completo gives a fare comparison with other OTAs, as the API writes it", async () => {
    const { out } = await run(["search", "CNF", "SDU", "2026-12-20", "--modo", "b", "--json-completo"]);
    const envelope = ModeBEnvelopeSchema.parse(JSON.parse(out));
    expect(envelope.Data[0]!.Ida.some((o) => (o.Outros?.length ?? 0) > 0)).toBe(true);
  });

  it("--json leaves out the airline members the spec keeps always empty; the rest is --json-completo's", async () => {
    const args = ["search", "GRU", "LIS", "2026-12-20", "--modo", "b"];
    const whole = JSON.parse((await run([...args, "--json-completo"])).out) as { Data: { Ida: { Cia: Record<string, unknown> }[] }[] };
    const { out } = await run([...args, "--json"]);
    expect(out).not.toMatch(/DadosCia|_PageNumber|"OrderBy"|ApiRequests/);
    const airline = { Id: expect.any(Number), Nome: expect.any(String), Iata: expect.any(String), AtivaBusca: true, Icao: expect.any(String), Pais: expect.any(String) };
    expect((JSON.parse(out) as typeof whole).Data[0]!.Ida.map((o) => o.Cia)).toEqual(whole.Data[0]!.Ida.map(() => airline));
    // Of the same answer, nothing else differs.
    const kept = printedEnvelope(whole as unknown as AnyEnvelope, false) as typeof whole;
    for (const offer of whole.Data[0]!.Ida) offer.Cia = Object.fromEntries(Object.keys(airline).map((k) => [k, offer.Cia[k]]));
    expect(kept).toEqual(whole);
    const lines = (await run([...args, "--watch"])).out.trim().split("\n");
    expect(lines.at(-1)).not.toContain("DadosCia");
  });

  it("--modo b counts the other agencies of a flight once each, however many offers each has, with the cheapest", async () => {
    const envelope = ModeBEnvelopeSchema.parse(JSON.parse((await run(["search", "CNF", "SDU", "2026-12-20", "--modo", "b", "--json-completo"])).out));
    const offer = envelope.Data[0]!.Ida.find((o) => new Set((o.Outros ?? []).map((x) => x.Site)).size < (o.Outros ?? []).length);
    expect(offer, "a flight with two offers of one agency").toBeDefined();
    const agencies = new Set(offer!.Outros!.map((x) => x.Site)).size;
    const cheapest = Math.min(...offer!.Outros!.map((x) => x.Valor));
    expect(otherAgencies(offer!)).toBe(`${agencies} (próxima ${formatBrl(cheapest)})`);
    const { out } = await run(["search", "CNF", "SDU", "2026-12-20", "--modo", "b"]);
    expect(out).toContain("Outras agências");
    expect(out).not.toContain("Outras OTAs");
    const row = out.split("\n").find((l) => l.includes(offer!.Voos[0]!.Numero.replace("-", " ")) && l.includes(formatBrl(offer!.ValorTotalComTaxa)));
    expect(row).toContain(`${agencies} (próxima ${formatBrl(cheapest)})`);
  });

  it("--modo b writes each flight's numbers apart and the saving the page shows, rounded the same way, never a bare dash", async () => {
    const envelope = ModeBEnvelopeSchema.parse(JSON.parse((await run(["search", "GRU", "LIS", "2026-12-20", "--modo", "b", "--json-completo"])).out));
    const { out } = await run(["search", "GRU", "LIS", "2026-12-20", "--modo", "b"]);
    const lines = out.split("\n");
    expect(out).not.toMatch(/[A-Z0-9]{2}\d+[A-Z0-9]{2}\d+/);
    for (const offer of envelope.Data[0]!.Ida) {
      const at = lines.findIndex((l) => l.includes(offer.Voos[0]!.Numero.replace("-", " ")) && l.includes(formatBrl(offer.ValorTotalComTaxa)));
      expect(at, offer.FlightCode).toBeGreaterThan(0);
      // The other flights of a connection on the next lines of the same row.
      offer.Voos.slice(1).forEach((v, i) => expect(lines[at + 1 + i]).toContain(v.Numero.replace("-", " ")));
      const economia = lines[at]!.split("│").at(-2)!.trim();
      const s = airlineSaving(offer);
      if (s === undefined) expect(economia).toBe("—");
      else if (Math.round(s.percent) < 0) expect(economia).toBe(`${formatPercent(-s.percent)} mais cara`);
      else expect(economia).toBe(formatPercent(Math.round(s.percent) === 0 ? 0 : s.percent));
      // What the page writes for the same offer (offer-card: the saving when 1 % or more).
      if (s && s.percent >= 1) expect(economia).toBe(formatPercent(s.percent));
    }
    expect(out).toContain("Economia: quanto a oferta custa abaixo da própria companhia");
  });

  it("--watch streams one JSON snapshot per line with growing versions, the last one completed", async () => {
    const { out } = await run(["search", "CNF", "SDU", "2026-12-20", "--watch"]);
    const lines = out.trim().split("\n").map((l) => JSON.parse(l) as { Completed: boolean; Progresso: { Versao: number } });
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.at(-1)!.Completed).toBe(true);
    const versions = lines.map((l) => l.Progresso.Versao);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
  });

  it("bad arguments get clear messages naming the flag and a non-zero exit", async () => {
    const { code, err } = await run(["search", "CNF", "CNF", "2026-13-40", "--adultos", "zero"]);
    expect(code).toBe(2);
    expect(err).toContain("<ida> 2026-13-40: deve ser uma data válida no formato AAAA-MM-DD.");
    expect(err).toContain("<destino> CNF: deve ser diferente de <origem>.");
    expect(err).toContain("--adultos zero: deve ser um número inteiro entre 1 e 9.");
  });

  it("--modo that is no mode is answered with the modes the CLI takes, in its own terms, not the API's Companhia ids", async () => {
    for (const modo of ["x", "999"]) {
      const { code, err } = await run(["search", "CNF", "SDU", "2026-12-20", "--modo", modo]);
      expect(code).toBe(2);
      expect(err).toBe(
        `Busca inválida:\n  --modo ${modo}: não é um modo desta busca; use a (todas as companhias), b (comparar agências) ou uma companhia: latam, gol, azul, tap, copa, american, iberia (ou o id dela).\n`,
      );
    }
  });

  it("a missing argument, an unknown option or command is refused in Portuguese, with a suggestion", async () => {
    const missing = await run(["search", "CNF"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toBe("erro: falta o argumento obrigatório <destino>\n");
    const option = await run(["search", "CNF", "SDU", "2026-12-20", "--pagna", "2"]);
    expect(option.code).toBe(2);
    expect(option.err).toBe("erro: opção desconhecida '--pagna'\n(Você quis dizer --pagina?)\n");
    const command = await run(["serch"]);
    expect(command.code).toBe(2);
    expect(command.err).toBe("erro: comando desconhecido 'serch'\n(Você quis dizer search?)\n");
  });

  it("--pagina asks for another page of the same result", async () => {
    const first = ModeAEnvelopeSchema.parse(JSON.parse((await run(["search", "CNF", "SDU", "2026-12-20", "--json"])).out));
    const { code, out } = await run(["search", "CNF", "SDU", "2026-12-20", "--pagina", "2", "--json"]);
    expect(code).toBe(0);
    const second = ModeAEnvelopeSchema.parse(JSON.parse(out));
    expect(second.pagination).toMatchObject({ currentPage: 2, totalItems: first.pagination.totalItems });
    const prices = (e: typeof first) => e.Data[0]!.flights.map((f) => f.fareGroup.priceWithTax);
    expect(Math.min(...prices(second))).toBeGreaterThanOrEqual(Math.max(...prices(first)));
  });

  it("says a source is receiving (recebendo) while it sends items and has not finished, waiting (aguardando) only before its first", async () => {
    const { out } = await run(["search", "CNF", "SDU", "2026-12-20"]);
    const progress = out.split("\n\n")[0]!.split("\n");
    expect(progress.some((l) => /LATAM\s+recebendo, \d+ itens até agora$/.test(l)), progress.join("\n")).toBe(true);
    expect(progress.filter((l) => l.includes("aguardando"))).toEqual([]);
    // A source receiving is listed before it finishes.
    const latam = progress.filter((l) => /\] LATAM /.test(l)).map((l) => (l.includes("recebendo") ? "recebendo" : l.includes("concluída") ? "concluída" : l));
    expect(latam.at(0)).toBe("recebendo");
    expect(latam.at(-1)).toBe("concluída");
  });
});

describe("voar --help", () => {
  const ENGLISH = /Usage|Options|Arguments|Commands|display help|default:|\[options\]|\[command\]/;

  it("explains the search command in Portuguese, defaults included, with no English word of commander's", async () => {
    const { code, out } = await run(["search", "--help"]);
    expect(code).toBe(0);
    expect(out).toMatch(/^Uso: voar search \[opções\] <origem> <destino> <ida>\n/);
    for (const title of ["Argumentos:", "Opções:"]) expect(out).toContain(`\n${title}\n`);
    expect(out).toMatch(/--modo <modo>[\s\S]*\(padrão: a\)/);
    expect(out).toMatch(/--pagina <n>\s+página \(modo A\) \(padrão: 1\)/);
    expect(out).toMatch(/ida\s+data da ida: AAAA-MM-DD, ou \+N para daqui a N dias\s+\(hoje no horário de São Paulo\)/);
    expect(out).toMatch(/-h, --help\s+mostra esta ajuda/);
    expect(out).not.toMatch(ENGLISH);
  });

  it("lists the commands in Portuguese, and help <comando> gives the command's help", async () => {
    const top = await run(["--help"]);
    expect(top.code).toBe(0);
    expect(top.out).toMatch(/^Uso: voar \[opções\] \[comando\]\n/);
    expect(top.out).toContain("\nComandos:\n");
    expect(top.out).toMatch(/search \[opções\] <origem> <destino> <ida>\s+Busca voos/);
    expect(top.out).toMatch(/help \[comando\]\s+mostra a ajuda de um comando/);
    expect(top.out).not.toMatch(ENGLISH);
    const viaHelp = await run(["help", "search"]);
    expect(viaHelp.out).toBe((await run(["search", "--help"])).out);
  });
});
