import type { Command } from "commander";
import { resolveRelativeDate, type AlertEvent, type WireAlert } from "@voar/core";
import { createClient, type FetchLike, type WatchRequest } from "@voar/http-adapter/fetch";
import type { Colors } from "./colors.js";
import { describeRemoteError } from "./remote-search.js";
import { startAlertReceiver } from "./alert-receiver.js";

/** The demo's service, as `npx -y pnpm@10.34.9 demo` starts it: the default target of `voar alerta`. */
const DEMO_API = "http://localhost:8787/api";
const DEMO_KEY = "demo-api-key-voar-0001";

/** What the alert commands write to and with. */
export interface AlertCommandIo {
  readonly out: { write(s: string): unknown };
  readonly err: { write(s: string): unknown };
  readonly pc: Colors;
  /** The `fetch` of the SDK's client (tests); default the global one. */
  readonly fetch?: FetchLike | undefined;
  /** Ends a long-running command (`ouvir`, `receptor`) when it aborts; default: never (Ctrl+C). */
  readonly signal?: AbortSignal | undefined;
  readonly exit: (code: number) => void;
}

interface Target {
  readonly baseUrl: string;
  readonly token: string;
}

const reais = (v: number | null | undefined) => (v === null || v === undefined ? "—" : `R$ ${v.toLocaleString("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);
const pontos = (v: number | null | undefined) => (v === null || v === undefined ? "—" : `${v.toLocaleString("pt-BR")} pts`);

/** A watch in a few lines. */
export const describeWatch = (w: WireAlert): string =>
  [
    `${w.Id}  ${w.Origem} → ${w.Destino}  ${w.Janela.Tipo === "mes" ? `mês ${w.Janela.Mes}` : w.Dias.length === 1 ? w.Dias[0] : `${w.Dias[0]} a ${w.Dias.at(-1)}`}  ${w.Tipo}${w.Cabine ? `, ${w.Cabine}` : ""}  (${w.Estado}, até ${w.ExpiraEm})`,
    `  teto: ${w.TetoValor === null ? "qualquer nova mínima" : reais(w.TetoValor)} / ${w.TetoPontos === null ? "qualquer nova mínima" : pontos(w.TetoPontos)}`,
    `  menor visto: ${w.MenorValor ? `${reais(w.MenorValor.Valor)} em ${w.MenorValor.Dia}` : "—"} / ${w.MenorPontos ? `${pontos(w.MenorPontos.Pontos)} em ${w.MenorPontos.Dia}` : "—"}`,
    `  verificações: ${w.Verificacoes}, avisos: ${w.Avisos}${w.Webhook ? `, webhook ${w.Webhook}` : ""}`,
  ].join("\n");

/** An alert in one line. */
export const describeAlert = (e: AlertEvent): string => {
  const d = e.data;
  const cash = d.Valor ? `${reais(d.Valor.Atual)} (antes ${reais(d.Valor.AnteriorMinimo)})` : undefined;
  const miles = d.Pontos ? `${pontos(d.Pontos.Atual)} + ${reais(d.Pontos.Taxas)} (antes ${pontos(d.Pontos.AnteriorMinimo)})` : undefined;
  return `${d.Origem} → ${d.Destino} em ${d.Dia}: ${[cash, miles].filter(Boolean).join(" e ")} · alerta ${d.AlertaId}${d.Referencia ? ` (${d.Referencia})` : ""}${d.TokenBusca ? ` · TokenBusca ${d.TokenBusca}` : ""}`;
};

const number = (text: string | undefined) => (text === undefined ? undefined : /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text);

/**
 * `voar alerta`: price watches on a service speaking this API (by default the demo's, `npx -y pnpm@10.34.9 demo`):
 * `criar`, `listar`, `ver`, `apagar`, `ouvir` (the alerts as they come) and `receptor` (a local webhook receiver that
 * checks each signature and prints the alerts).
 */
export const addAlertCommand = (program: Command, io: AlertCommandIo): void => {
  const alerta = program.command("alerta").description("Alertas de preço (avise-me quando baixar): criar, listar, ver, apagar, ouvir, receptor.");
  const withTarget = (c: Command) =>
    c.option("--base-url <url>", `serviço que fala esta API (padrão: o da demonstração, ${DEMO_API})`, DEMO_API).option("--token <token>", "token Bearer (padrão: a chave da demonstração)", DEMO_KEY);
  const client = (t: Target) => createClient({ baseUrl: t.baseUrl, token: t.token, ...(io.fetch ? { fetch: io.fetch } : {}) });
  const guarded = (t: Target, run: () => Promise<void>) =>
    run().catch((e: unknown) => {
      const message = describeRemoteError(e, t.baseUrl);
      if (message === undefined) throw e;
      io.err.write(`Erro: ${message}\n`);
      io.exit(1);
    });

  withTarget(
    alerta
      .command("criar")
      .description("Cria um alerta: avisa quando o preço ficar igual ou abaixo do teto (ou a cada nova mínima).")
      .argument("<origem>", "aeroporto de origem (IATA)")
      .argument("<destino>", "aeroporto de destino (IATA)")
      .argument("<ida>", "dia da ida (AAAA-MM-DD ou +N) ou um mês inteiro (AAAA-MM)")
      .option("--dias <n>", "dias antes e depois da ida acompanhados também (0 a 7)")
      .option("--teto-valor <reais>", "avisar quando a menor tarifa em dinheiro ficar igual ou abaixo disto")
      .option("--teto-pontos <n>", "avisar quando a tarifa de menos pontos ficar igual ou abaixo disto")
      .option("--tipo <tipo>", "dinheiro, milhas ou ambos", "ambos")
      .option("--cabine <cabine>", "economica, premium, executiva ou primeira")
      .option("--adultos <n>", "adultos", "1")
      .option("--criancas <n>", "crianças", "0")
      .option("--bebes <n>", "bebês", "0")
      .option("--expira <data>", "último dia do alerta (AAAA-MM-DD ou +N)")
      .option("--webhook <url>", "URL que recebe cada aviso (assinado)")
      .option("--referencia <texto>", "seu identificador do viajante ou do pedido"),
  ).action(async (origem: string, destino: string, ida: string, f: Record<string, string | undefined> & Target) => {
    const month = /^\d{4}-\d{2}$/.test(ida);
    const body: WatchRequest = {
      Origem: origem,
      Destino: destino,
      ...(month ? { Mes: ida } : { Ida: resolveRelativeDate(ida) }),
      ...(f["dias"] === undefined ? {} : { DiasFlexiveis: number(f["dias"]) as number }),
      ...(f["tetoValor"] === undefined ? {} : { TetoValor: number(f["tetoValor"]) as number }),
      ...(f["tetoPontos"] === undefined ? {} : { TetoPontos: number(f["tetoPontos"]) as number }),
      Tipo: f["tipo"] as WatchRequest["Tipo"],
      ...(f["cabine"] === undefined ? {} : { Cabine: f["cabine"] as WatchRequest["Cabine"] }),
      Adultos: number(f["adultos"]) as number,
      Criancas: number(f["criancas"]) as number,
      Bebes: number(f["bebes"]) as number,
      ...(f["expira"] === undefined ? {} : { ExpiraEm: resolveRelativeDate(f["expira"]) }),
      ...(f["webhook"] === undefined ? {} : { Webhook: f["webhook"] }),
      ...(f["referencia"] === undefined ? {} : { Referencia: f["referencia"] }),
    };
    await guarded(f, async () => {
      const w = await client(f).watch(body);
      io.out.write(`${io.pc.green("Alerta criado.")}\n${describeWatch(w)}\n`);
      io.exit(0);
    });
  });

  withTarget(alerta.command("listar").description("Lista os alertas do seu token.")).action(async (f: Target) =>
    guarded(f, async () => {
      const all = await client(f).watches.list();
      io.out.write(all.length === 0 ? "Nenhum alerta.\n" : `${all.map(describeWatch).join("\n\n")}\n`);
      io.exit(0);
    }),
  );

  withTarget(alerta.command("ver").description("Mostra um alerta e as entregas dos seus avisos ao webhook.").argument("<id>", "id do alerta")).action(async (id: string, f: Target) =>
    guarded(f, async () => {
      const c = client(f);
      const [w, deliveries] = await Promise.all([c.watches.get(id), c.watches.deliveries(id)]);
      const lines = deliveries.map((d) => `  ${d.Id} ${d.Dia} ${d.Estado} após ${d.Tentativas.length} tentativa(s)${d.ProximaTentativa ? `, próxima ${d.ProximaTentativa}` : ""}`);
      io.out.write(`${describeWatch(w)}\n${lines.length > 0 ? `entregas:\n${lines.join("\n")}` : "nenhuma entrega"}\n`);
      io.exit(0);
    }),
  );

  withTarget(alerta.command("apagar").description("Apaga um alerta.").argument("<id>", "id do alerta")).action(async (id: string, f: Target) =>
    guarded(f, async () => {
      await client(f).watches.cancel(id);
      io.out.write(`Alerta ${id} apagado.\n`);
      io.exit(0);
    }),
  );

  withTarget(alerta.command("ouvir").description("Mostra os avisos dos seus alertas à medida que chegam (o fluxo SSE; Ctrl+C para parar).")).action(async (f: Target) =>
    guarded(f, async () => {
      io.out.write(`Ouvindo os avisos de ${f.baseUrl}…\n`);
      await new Promise<void>((resolve, reject) => {
        const sub = client(f).alerts$().subscribe({ next: ({ event }) => io.out.write(`${describeAlert(event)}\n`), error: reject });
        io.signal?.addEventListener("abort", () => (sub.unsubscribe(), resolve()), { once: true });
      });
      io.exit(0);
    }),
  );

  withTarget(
    alerta
      .command("receptor")
      .description("Recebe os webhooks dos alertas nesta máquina: confere cada assinatura e mostra o aviso (Ctrl+C para parar).")
      .option("--porta <n>", "porta local (0: uma livre)", "9999")
      .option("--segredo <whsec>", "o segredo dos webhooks (padrão: pedido ao serviço, /Alertas/Segredo)"),
  ).action(async (f: Target & { porta: string; segredo?: string }) =>
    guarded(f, async () => {
      const secret = f.segredo ?? (await client(f).webhookSecret()).Segredo;
      const receiver = await startAlertReceiver({
        port: Number(f.porta),
        secret: () => Promise.resolve(secret),
        onReceived: (r) => io.out.write(r.kind === "alert" ? `${r.repeated ? io.pc.dim("(repetido) ") : ""}${describeAlert(r.event)}\n` : `${io.pc.red("assinatura inválida:")} ${r.reason}\n`),
      });
      io.out.write(`Receptor em ${receiver.url}: use-o como --webhook (o serviço precisa permitir endereços locais: VOAR_ALERTS_WEBHOOK_ALLOW_PRIVATE=true; a demonstração já permite).\n`);
      await new Promise<void>((resolve) => io.signal?.addEventListener("abort", () => resolve(), { once: true }));
      await receiver.close();
      io.exit(0);
    }),
  );
};
