import { describe, expect, it } from "vitest";
import { reduce } from "../../src/engine/reduce.js";
import { initialSnapshot } from "../../src/engine/snapshot.js";
import { CALENDAR_BUDGET_FAILURE, SOURCE_FAILURE } from "../../src/errors/error-catalogue.js";
import { RequestBudgetExhausted } from "../../src/errors/source-errors.js";
import { queryA } from "../support/offers.js";

const failedWith = (error: RequestBudgetExhausted) =>
  reduce(initialSnapshot(queryA, [{ id: "latam", name: "LATAM" }]), { type: "failed", sourceId: "latam", error }).sources[0]!.error;

describe("a source stopped by a request budget", () => {
  it("tells a calendar's budget from the search's own, in its sentence and its scope", () => {
    expect(failedWith(new RequestBudgetExhausted({ limit: 10 }))).toEqual({ tag: "RequestBudgetExhausted", message: SOURCE_FAILURE.RequestBudgetExhausted.mensagem, retryable: true });
    expect(failedWith(new RequestBudgetExhausted({ limit: 10, scope: "calendar" }))).toEqual({
      tag: "RequestBudgetExhausted",
      message: CALENDAR_BUDGET_FAILURE.mensagem,
      retryable: true,
      scope: "calendar",
    });
    expect(new RequestBudgetExhausted({ limit: 10, scope: "calendar" }).message).toBe("limite de 10 requisições ao fornecedor por calendário atingido");
  });
});
