import cliProgress from "cli-progress";
import { formatCount } from "../shared/pt-br-format.js";
import type { Colors } from "./colors.js";
import type { AnyEnvelope } from "./local-search.js";

type Source = NonNullable<AnyEnvelope["Progresso"]>["Fontes"][number];

/** Shows per-source progress while snapshots arrive. */
export interface ProgressView {
  update(envelope: AnyEnvelope): void;
  stop(): void;
}

/**
 * A source's state in words: `aguardando` before its first item, `recebendo` while items arrive and it has
 * not finished, `concluída` or `falhou` once done.
 */
export const sourceStateLabel = (f: Source, pc: Colors): string =>
  f.Estado === "concluida"
    ? pc.green(`concluída, ${formatCount(f.Itens)} itens`)
    : f.Estado === "falhou"
      ? pc.red(`falhou: ${f.Erro ?? "erro"}`)
      : f.Itens > 0
        ? pc.cyan(`recebendo, ${formatCount(f.Itens)} itens até agora`)
        : pc.yellow("aguardando");

/**
 * Live bars on a terminal (one per source, redrawn in place); on a pipe, a file or in CI, one line each
 * time a source changes state and no cursor movement, so logs stay readable. Colors as `colors` says
 * (none under `NO_COLOR` or off a terminal).
 */
export const createProgressView = (out: NodeJS.WriteStream | { write(s: string): unknown; isTTY?: boolean }, pc: Colors): ProgressView => {
  if ("isTTY" in out && out.isTTY) {
    const multi = new cliProgress.MultiBar(
      { format: " {bar} {name} {state}", barsize: 16, hideCursor: true, clearOnComplete: false, stream: out as NodeJS.WriteStream },
      cliProgress.Presets.shades_classic,
    );
    const bars = new Map<string, cliProgress.SingleBar>();
    return {
      update(envelope) {
        for (const f of envelope.Progresso?.Fontes ?? []) {
          const payload = { name: f.Nome.padEnd(18), state: sourceStateLabel(f, pc) };
          const value = f.Estado === "pendente" ? (f.Itens > 0 ? 0.5 : 0) : 1;
          const bar = bars.get(f.Nome);
          if (bar) bar.update(value, payload);
          else bars.set(f.Nome, multi.create(1, value, payload));
        }
      },
      stop: () => multi.stop(),
    };
  }
  const seen = new Map<string, string>();
  return {
    update(envelope) {
      const fontes = envelope.Progresso?.Fontes ?? [];
      const done = fontes.filter((f) => f.Estado !== "pendente").length;
      for (const f of fontes) {
        const key = `${f.Estado}:${f.Itens}`;
        if (seen.get(f.Nome) === key) continue;
        seen.set(f.Nome, key);
        if (f.Estado === "pendente" && f.Itens === 0) continue;
        out.write(`[${String(done).padStart(2)}/${fontes.length}] ${f.Nome.padEnd(18)} ${sourceStateLabel(f, pc)}\n`);
      }
    },
    stop: () => undefined,
  };
};
