import { Command, CommanderError, Option } from "commander";
import { lastValueFrom, tap } from "rxjs";
import type { ModeAEnvelope, ModeBEnvelope } from "@voar/core";
import { prepareLocalSearch, type AnyEnvelope, type PreparedSearch } from "./local-search.js";
import { colorEnabled, colorsFor, type Colors } from "./colors.js";
import { createProgressView } from "./progress-view.js";
import { describeRemoteError, prepareRemoteSearch } from "./remote-search.js";
import { printedEnvelope } from "./json-output.js";
import { inPortuguese } from "./pt-br-help.js";
import { describeFieldErrors, requestFromArgs, type SearchFlags } from "./request-from-args.js";
import { modeATable, modeBTable } from "./result-table.js";
import { addCalendarCommand, type CalendarCommandIo } from "./calendar-command.js";
import { addAlertCommand, type AlertCommandIo } from "./alert-command.js";

/** Where the CLI writes; injectable so tests capture it. */
export interface CliIo {
  readonly out: { write(s: string): unknown; isTTY?: boolean };
  readonly err: { write(s: string): unknown };
  /** The environment (`NO_COLOR`, `FORCE_COLOR`, `TERM`); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Runs a prepared search against a remote service instead of the simulator (set when `--base-url` is given). */
  readonly remote?: (body: Record<string, unknown>, opts: { baseUrl: string; token?: string | undefined }) => PreparedSearch;
  /** Runs a prepared calendar against a remote service (`voar calendario --base-url`); default: the SDK's client. */
  readonly remoteCalendar?: CalendarCommandIo["remote"];
  /** `voar alerta`: the SDK client's `fetch` and what ends `ouvir` and `receptor` (tests); default the global fetch, Ctrl+C. */
  readonly alerts?: Pick<AlertCommandIo, "fetch" | "signal"> | undefined;
}

interface Flags extends SearchFlags {
  readonly json?: boolean;
  readonly jsonCompleto?: boolean;
  readonly watch?: boolean;
  readonly baseUrl?: string;
  readonly token?: string;
  readonly seed?: string;
}

const isModeA = (e: AnyEnvelope): e is ModeAEnvelope => e.Success && "pagination" in e && e.pagination !== undefined;

const render = (e: AnyEnvelope, modo: string, pc: Colors, color: boolean): string => {
  if (!e.Success) return pc.red(`Erro ${e.Erro.Codigo}: ${e.MensagemErro}`);
  if (isModeA(e)) return modeATable(e, { color });
  return modeBTable(e as ModeBEnvelope, ["b", "otas", "1300"].includes(modo.toLowerCase()), { color });
};

const failedBanner = (e: AnyEnvelope, pc: Colors): string | undefined => {
  const failed = (e.Progresso?.Fontes ?? []).filter((f) => f.Estado === "falhou");
  if (failed.length === 0 || !e.Success) return undefined;
  const verb = failed.length === 1 ? "não respondeu" : "não responderam";
  return pc.yellow(`Atenção: ${failed.map((f) => f.Nome).join(", ")} ${verb}; os resultados abaixo vêm das demais fontes.`);
};

/**
 * The `voar` command line. Returns the process exit code: 0 on a successful search, 1 when the search
 * failed, 2 on bad arguments.
 */
export const main = async (
  argv: readonly string[],
  io: CliIo = { out: process.stdout, err: process.stderr, remote: (body, target) => prepareRemoteSearch(body, target) },
): Promise<number> => {
  let code = 0;
  const context = { out: io.out, env: io.env ?? process.env };
  const color = colorEnabled(context);
  const pc = colorsFor(context);
  const program = inPortuguese(new Command("voar"), { out: (s) => io.out.write(s), err: (s) => io.err.write(s) })
    .description("Busca progressiva de voos: todas as companhias (modo A), comparação entre OTAs (modo B) ou uma companhia.")
    .exitOverride();

  program
    .command("search")
    .description("Busca voos e mostra o progresso por fonte, depois uma tabela.")
    .argument("<origem>", "aeroporto de origem (IATA), ex. CNF")
    .argument("<destino>", "aeroporto de destino (IATA), ex. SDU")
    .argument("<ida>", "data da ida: AAAA-MM-DD, ou +N para daqui a N dias (hoje no horário de São Paulo), ex. +30")
    .option("--volta <data>", "data da volta (ida e volta): AAAA-MM-DD, ou +N dias a partir de hoje, ex. +37")
    .addOption(new Option("--modo <modo>", "a (todas as companhias), b (comparar OTAs), ou uma companhia: latam, gol, azul, tap, copa, american, iberia, ou seu id").default("a"))
    .option("--adultos <n>", "adultos (1 a 9)", "1")
    .option("--criancas <n>", "crianças", "0")
    .option("--bebes <n>", "bebês (até um por adulto)", "0")
    .option("--pagina <n>", "página (modo A)", "1")
    .option("--por-pagina <n>", "grupos por página (modo A, 1 a 100)", "10")
    .option("--ordenar <ordem>", "ordem dos grupos em todo o resultado: preco, duracao, partida, chegada, melhor (modo A)")
    .option("--paradas <lista>", "só grupos com estas paradas em todos os trechos, ex. 0 ou 0,1 (2 = duas ou mais; modo A)")
    .option("--paradas-ida <lista>", "só grupos com estas paradas no trecho de ida, ex. 0 (modo A)")
    .option("--paradas-volta <lista>", "só grupos com estas paradas no trecho de volta, ex. 0,1 (ida e volta, modo A)")
    .option("--companhias <lista>", "só estas companhias validadoras (IATA), ex. LA,G3 (modo A)")
    .option("--pagamento <tipo>", "só milhas ou só dinheiro (modo A)")
    .option("--saida-ida <janela>", "só partidas da ida nesta janela de hora local, ex. 06:00-11:59 (modo A)")
    .option("--saida-volta <janela>", "só partidas da volta nesta janela de hora local, ex. 18:00-23:59 (modo A)")
    .option("--duracao-maxima <min>", "duração máxima de cada sentido, em minutos (modo A)")
    .option("--preco-maximo <reais>", "preço máximo do grupo, em reais (modo A)")
    .option("--json", "imprime o envelope final em JSON, sem os membros que a especificação mantém sempre vazios em Cia")
    .option("--json-completo", "imprime o envelope final em JSON exatamente como a API o escreve")
    .option("--watch", "imprime cada snapshot (JSON por linha) enquanto a busca avança")
    .option("--base-url <url>", "busca num serviço que fala esta API em vez do simulador embutido (ex. http://localhost:8787/api, o de npx -y pnpm@10.34.9 demo)")
    .option("--token <token>", "token Bearer para --base-url (a demonstração mostra o seu)")
    .option("--seed <n>", "semente do simulador embutido")
    .action(async (origem: string, destino: string, ida: string, flags: Flags) => {
      const body = requestFromArgs(origem, destino, ida, flags);
      if (flags.token && !flags.baseUrl) {
        io.err.write("--token só faz sentido com --base-url.\n");
        code = 2;
        return;
      }
      let prepared: PreparedSearch;
      if (flags.baseUrl) {
        if (!io.remote) {
          io.err.write("--base-url não está disponível nesta instalação.\n");
          code = 2;
          return;
        }
        prepared = io.remote(body, { baseUrl: flags.baseUrl, token: flags.token });
      } else {
        const seed = flags.seed === undefined ? undefined : Number(flags.seed);
        if (seed !== undefined && !Number.isSafeInteger(seed)) {
          io.err.write("--seed deve ser um número inteiro.\n");
          code = 2;
          return;
        }
        prepared = prepareLocalSearch(body, seed === undefined ? {} : { seed });
      }
      if (prepared.kind === "invalid") {
        io.err.write(`Busca inválida:\n${describeFieldErrors(prepared.campos, { body, modo: flags.modo }).join("\n")}\n`);
        code = 2;
        return;
      }
      const whole = flags.jsonCompleto === true;
      const quiet = flags.json === true || whole || flags.watch === true;
      const progress = quiet ? undefined : createProgressView(io.out, pc);
      let last: AnyEnvelope;
      try {
        last = await lastValueFrom(
          prepared.answers$.pipe(
            tap((e) => {
              if (flags.watch) io.out.write(`${JSON.stringify(printedEnvelope(e, whole))}\n`);
              progress?.update(e);
            }),
          ),
        );
      } catch (e) {
        progress?.stop();
        const message = flags.baseUrl ? describeRemoteError(e, flags.baseUrl) : undefined;
        if (message === undefined) throw e;
        io.err.write(`Erro: ${message}\n`);
        code = 1;
        return;
      }
      progress?.stop();
      if (flags.json || whole) io.out.write(`${JSON.stringify(printedEnvelope(last, whole), null, 2)}\n`);
      else if (!flags.watch) {
        const banner = failedBanner(last, pc);
        io.out.write(`\n${banner ? `${banner}\n` : ""}${render(last, flags.modo, pc, color)}\n`);
      }
      code = last.Success ? 0 : 1;
    });

  addCalendarCommand(program, { out: io.out, err: io.err, pc, color, remote: io.remoteCalendar, exit: (c) => void (code = c) });
  addAlertCommand(program, { out: io.out, err: io.err, pc, ...io.alerts, exit: (c) => void (code = c) });

  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    throw e;
  }
  return code;
};
