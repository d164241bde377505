import { Option, type Command } from "commander";
import { lastValueFrom, tap } from "rxjs";
import type { CalendarEnvelope } from "@voar/core";
import { prepareLocalCalendar, prepareRemoteCalendar, type PreparedCalendar } from "./calendar-search.js";
import { calendarProgressLine, calendarTable } from "./calendar-table.js";
import type { Colors } from "./colors.js";
import { describeRemoteError } from "./remote-search.js";
import { describeFieldErrors, requestFromArgs, type SearchFlags } from "./request-from-args.js";

/** What the calendar's `--modo` takes. */
const CALENDAR_MODES = "a (todas as companhias) ou uma companhia: latam, gol, azul, tap, copa, american, iberia (ou o id dela); a comparação entre agências (b) não tem calendário";

interface CalendarFlags extends Pick<SearchFlags, "volta" | "modo" | "adultos" | "criancas" | "bebes"> {
  readonly dias: string;
  readonly diasVolta?: string;
  readonly json?: boolean;
  readonly baseUrl?: string;
  readonly token?: string;
  readonly seed?: string;
}

/** What the calendar command writes to and with. */
export interface CalendarCommandIo {
  readonly out: { write(s: string): unknown; isTTY?: boolean };
  readonly err: { write(s: string): unknown };
  readonly pc: Colors;
  readonly color: boolean;
  /** Runs against a remote service instead of the simulator (`--base-url`). Default: the SDK's client. */
  readonly remote?: ((body: Record<string, unknown>, target: { baseUrl: string; token?: string | undefined }) => PreparedCalendar) | undefined;
  /** Sets the process's exit code. */
  readonly exit: (code: number) => void;
}

/**
 * `voar calendario <origem> <destino> <ida> --dias N`: the price calendar around a date (dates also as
 * `+N` days from today), with live progress (a line per change: days done, the cheapest so far) and a table
 * at the end, or `--json` (the final answer). On the simulator by default; `--base-url` asks a service.
 */
export const addCalendarCommand = (program: Command, io: CalendarCommandIo): void => {
  program
    .command("calendario")
    .description("Calendário de preços: o dia mais barato em dinheiro e em milhas, dia a dia, em volta de uma data.")
    .argument("<origem>", "aeroporto de origem (IATA), ex. GRU")
    .argument("<destino>", "aeroporto de destino (IATA), ex. SSA")
    .argument("<ida>", "data da ida, AAAA-MM-DD ou +N (N dias a partir de hoje)")
    .addOption(new Option("--dias <n>", "dias antes e depois da ida (1 a 7)").default("3"))
    .option("--volta <data>", "data da volta, AAAA-MM-DD ou +N: cada dia mantém a mesma estadia")
    .option("--dias-volta <n>", "com --volta: dias antes e depois da volta (1 a 3), uma grade de cada ida por cada volta")
    .addOption(new Option("--modo <modo>", "a (todas as companhias) ou uma companhia: latam, gol, azul, tap, copa, american, iberia, ou seu id").default("a"))
    .option("--adultos <n>", "adultos (1 a 9)", "1")
    .option("--criancas <n>", "crianças", "0")
    .option("--bebes <n>", "bebês (até um por adulto)", "0")
    .option("--json", "imprime a resposta final em JSON")
    .option("--base-url <url>", "pede o calendário a um serviço que fala esta API (ex. http://localhost:8787/api)")
    .option("--token <token>", "token Bearer para --base-url")
    .option("--seed <n>", "semente do simulador embutido")
    .action(async (origem: string, destino: string, ida: string, flags: CalendarFlags) => {
      const { NumeroPagina: _p, QuantidadePorPagina: _q, ...query } = requestFromArgs(origem, destino, ida, {
        ...flags,
        pagina: "1",
        porPagina: "10",
      } as SearchFlags);
      const days = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text) : text);
      const body = { ...query, DiasFlexiveis: days(flags.dias), ...(flags.diasVolta === undefined ? {} : { DiasFlexiveisVolta: days(flags.diasVolta) }) };
      const seed = flags.seed === undefined ? undefined : Number(flags.seed);
      if ((flags.token && !flags.baseUrl) || (seed !== undefined && !Number.isSafeInteger(seed))) {
        io.err.write(flags.token && !flags.baseUrl ? "--token só faz sentido com --base-url.\n" : "--seed deve ser um número inteiro.\n");
        return io.exit(2);
      }
      const prepared = flags.baseUrl
        ? (io.remote ?? prepareRemoteCalendar)(body, { baseUrl: flags.baseUrl, token: flags.token })
        : prepareLocalCalendar(body, seed === undefined ? {} : { seed });
      if (prepared.kind === "invalid") {
        const lines = describeFieldErrors(prepared.campos, { body, modo: flags.modo, modes: CALENDAR_MODES });
        io.err.write(`Calendário inválido:\n${lines.join("\n")}\n`);
        return io.exit(2);
      }
      let lastLine = "";
      let last: CalendarEnvelope;
      try {
        last = await lastValueFrom(
          prepared.answers$.pipe(
            tap((e) => {
              if (flags.json) return;
              const line = calendarProgressLine(e, io.pc);
              if (line === lastLine) return;
              lastLine = line;
              io.out.write(io.out.isTTY ? `\r\x1b[2K${line}` : `${line}\n`);
            }),
          ),
        );
      } catch (e) {
        const message = flags.baseUrl ? describeRemoteError(e, flags.baseUrl) : undefined;
        if (message === undefined) throw e;
        io.err.write(`${io.out.isTTY ? "\n" : ""}Erro: ${message}\n`);
        return io.exit(1);
      }
      if (flags.json) io.out.write(`${JSON.stringify(last, null, 2)}\n`);
      else io.out.write(`${io.out.isTTY ? "\n" : ""}\n${calendarTable(last, { color: io.color })}\n`);
      io.exit(0);
    });
};
