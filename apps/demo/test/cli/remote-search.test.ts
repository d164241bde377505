import { AuthError, HttpStatusError, TransportError } from "@voar/core";
import { describe, expect, it } from "vitest";
import { describeRemoteError, prepareRemoteSearch } from "../../src/cli/remote-search.js";

const NOW = new Date("2026-11-22T15:00:00Z");
const TARGET = { baseUrl: "http://localhost:8787/api", token: "k" };

describe("remote searches of the CLI", () => {
  it("refuses a bad request with the contract's field messages, without calling the service", () => {
    const calls: string[] = [];
    const prepared = prepareRemoteSearch({ Origem: "CNF", Destino: "CNF", Ida: "2026-13-40" }, TARGET, {
      now: NOW,
      fetch: (input) => {
        calls.push(String(input));
        return Promise.reject(new Error("no network in this test"));
      },
    });
    expect(prepared.kind).toBe("invalid");
    if (prepared.kind === "invalid") expect(prepared.campos.map((c) => c.Campo).sort()).toEqual(["Destino", "Ida"]);
    expect(calls).toEqual([]);
  });

  it("turns the client's tagged errors into one line a person can act on", () => {
    expect(describeRemoteError(new AuthError({ detail: "token inválido." }), TARGET.baseUrl)).toBe(
      "http://localhost:8787/api recusou o acesso: token inválido. Confira --token.",
    );
    expect(describeRemoteError(new TransportError({ detail: "ECONNREFUSED" }), TARGET.baseUrl)).toContain("O serviço está rodando? (npx -y pnpm@10.34.9 demo)");
    expect(describeRemoteError(new HttpStatusError({ status: 404 }), TARGET.baseUrl)).toContain("termina na base da API");
    expect(describeRemoteError(new Error("bug"), TARGET.baseUrl)).toBeUndefined();
  });
});
