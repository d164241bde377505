import type { Envelope } from "@voar/http-adapter/fetch";
import { describe, expect, it } from "vitest";
import { failedSources, percentDone } from "../../src/web/search/progress.js";

type Fonte = NonNullable<Envelope["Progresso"]>["Fontes"][number];
const envelope = (fontes: Fonte[], completed = false) =>
  ({
    Completed: completed,
    Progresso: {
      Versao: 1,
      FontesTotal: fontes.length,
      FontesConcluidas: fontes.filter((f) => f.Estado !== "pendente").length,
      Fontes: fontes,
      ProximaConsultaMs: 500,
    },
  }) as unknown as Envelope;

describe("search progress", () => {
  it("counts finished sources whole and answering ones half", () => {
    const fontes: Fonte[] = [
      { Nome: "LATAM", Estado: "concluida", Itens: 45 },
      { Nome: "GOL", Estado: "pendente", Itens: 12 },
      { Nome: "Azul", Estado: "pendente", Itens: 0 },
      { Nome: "TAP", Estado: "falhou", Itens: 0, Erro: "fora do ar" },
    ];
    expect(percentDone(envelope(fontes))).toBe(62);
    expect(failedSources(envelope(fontes)).map((f) => f.Nome)).toEqual(["TAP"]);
  });

  it("reaches 100% only when the API says the search is complete", () => {
    const all: Fonte[] = [{ Nome: "LATAM", Estado: "concluida", Itens: 1 }];
    expect(percentDone(envelope(all))).toBe(99);
    expect(percentDone(envelope(all, true))).toBe(100);
    expect(percentDone(undefined)).toBe(0);
  });
});
