/**
 * The shipped scenarios: what each fixture in `fixtures/` is, and how it is recorded (the simulator behind
 * the live fake upstream, the faults injected, the pace of the recording client). `pnpm --filter
 * @voar/testing record` records them all again; the result is the same byte for byte.
 */
import type { FaultRule } from "../fake-upstream/faults.js";

/** One scenario. */
export interface Scenario {
  /** Kebab-case; also the fixture's file name. */
  readonly name: string;
  readonly description: string;
  /** The search request body the client sends. */
  readonly request: Readonly<Record<string, unknown>>;
  /** Simulated latency of a source to answer completely (ms), by source id; others keep the simulator's default. */
  readonly latencyMs?: Readonly<Record<string, number>> | undefined;
  /** Batches each source splits its offers into. Default 2. */
  readonly batches?: number | undefined;
  /** Flights kept per direction and airline, to keep the fixture small. */
  readonly perAirline: number;
  readonly faults?: readonly FaultRule[] | undefined;
  /** The upstream sends `Progresso` with a `ProximaConsultaMs` hint (our own service does; the real one does not). */
  readonly progressHints?: boolean | undefined;
  /** The recording client's pause between polls. */
  readonly pollMs: number;
  /** How the recording client's search ends. */
  readonly ends: "completed" | "refused" | "gave-up";
}

/** The instant every recording starts at (virtual time). */
export const SCENARIO_EPOCH = Date.UTC(2026, 5, 1, 12, 0, 0);

/** The agency login of the recordings (the password never reaches a fixture). */
export const SCENARIO_ACCOUNT = { username: "agencia-demo", password: "segredo-demo" } as const;

const oneWay = { Origem: "CNF", Destino: "SDU", Ida: "2026-09-15", Adultos: 1, Criancas: 0, Bebes: 0, Companhia: -1 } as const;
const spread = { latam: 1_200, gol: 2_400, azul: 3_600 } as const;

/** Every shipped scenario. */
export const SCENARIOS: readonly Scenario[] = [
  {
    name: "mode-a-one-way",
    description: "Mode A, one way CNF-SDU: Completed false with every provider active, then results grow over several polls.",
    request: oneWay,
    latencyMs: spread,
    perAirline: 1,
    pollMs: 1_000,
    ends: "completed",
  },
  {
    name: "mode-a-round-trip",
    description: "Mode A, round trip CNF-SDU with paging asked and Progresso pacing hints; outbound and return in one object.",
    request: { ...oneWay, Volta: "2026-09-20", NumeroPagina: 1, QuantidadePorPagina: 100 },
    latencyMs: spread,
    perAirline: 1,
    progressHints: true,
    pollMs: 1_000,
    ends: "completed",
  },
  {
    name: "mode-b-alternatives",
    description: "Mode B (Companhia 1300), one way CNF-SDU: OTA offers, each with the other OTAs' offers in Outros.",
    request: { ...oneWay, Companhia: 1300 },
    latencyMs: { "ota:voaja": 1_200, "ota:passagem-certa": 2_400, "ota:milhas-e-cia": 3_000, "ota:ceu-aberto": 1_800, "ota:bilhete-facil": 2_600 },
    perAirline: 1,
    pollMs: 1_000,
    ends: "completed",
  },
  {
    name: "single-airline-miles-and-cash",
    description: "GOL alone (Companhia 2), CNF-GIG: miles and cash (PontosAdulto -1) offers in the Mode B shape, TotalItens 0.",
    request: { ...oneWay, Destino: "GIG", Companhia: 2 },
    latencyMs: { gol: 2_000 },
    perAirline: 3,
    pollMs: 1_000,
    ends: "completed",
  },
  {
    name: "no-availability",
    description: "Mode A on a route nobody flies (BVB-TBT): the search completes with no flights.",
    request: { ...oneWay, Origem: "BVB", Destino: "TBT" },
    perAirline: 2,
    pollMs: 1_000,
    ends: "completed",
  },
  {
    name: "permission-error",
    description: "A single-airline search the account may not run: HTTP 200, Success false, .NET exceptions with a stack trace.",
    request: { ...oneWay, Companhia: 3 },
    perAirline: 2,
    faults: [{ at: 1, fault: { kind: "business-error", message: "A agência não tem permissão para consultar esta companhia." } }],
    pollMs: 1_000,
    ends: "refused",
  },
  {
    name: "token-expiry-mid-search",
    description: "Mode A one way: the token is revoked at the third request (401); the client logs in again and the search goes on.",
    request: oneWay,
    latencyMs: spread,
    perAirline: 1,
    faults: [{ at: 3, fault: { kind: "revoke-tokens" } }],
    pollMs: 1_000,
    ends: "completed",
  },
  {
    name: "rate-limited",
    description: "Mode A one way: the second request gets 429 with Retry-After 2; the search goes on after the wait.",
    request: oneWay,
    latencyMs: spread,
    perAirline: 1,
    faults: [{ at: 2, fault: { kind: "rate-limit", retryAfterS: 2 } }],
    pollMs: 1_000,
    ends: "completed",
  },
  {
    name: "upstream-dies-mid-search",
    description: "Mode A one way: after two answers every connection drops; the client gives up with the partial results.",
    request: oneWay,
    latencyMs: spread,
    perAirline: 1,
    faults: [{ at: 3, through: "end", fault: { kind: "reset" } }],
    pollMs: 1_000,
    ends: "gave-up",
  },
  {
    name: "flaky-transport",
    description: "Mode A one way: a 503 with a stack trace, a truncated body, a 4 s answer and a dropped connection, then recovery.",
    request: oneWay,
    latencyMs: spread,
    perAirline: 1,
    faults: [
      { at: 2, fault: { kind: "status", status: 503 } },
      { at: 3, fault: { kind: "truncate" } },
      { at: 4, fault: { kind: "slow", delayMs: 4_000 } },
      { at: 5, fault: { kind: "reset" } },
    ],
    pollMs: 1_000,
    ends: "completed",
  },
  {
    name: "fare-families",
    description:
      "GOL alone (Companhia 2), CNF-GIG: the same flight at LIGHT, PLUS and MAX (Tarifas[].Tipo), 0, 1 and 2 checked bags in BagagensInclusas, QtdBagagemInclusa 0 as real answers send it; award offers with Tarifas null.",
    request: { ...oneWay, Destino: "GIG", Companhia: 2 },
    latencyMs: { gol: 2_000 },
    perAirline: 3,
    pollMs: 1_000,
    ends: "completed",
  },
  {
    name: "agency-discount",
    description:
      "Mode B (Companhia 1300), CNF-GIG for 2 adults and a child: Bilhete Fácil's discount as a negative Taxas.Servico (-5: 5 % of the fare) beside other OTAs' positive percentages; ValorTotalTaxas = Embarque + ValorTotal x Servico / 100, totals and PercentualEconomia consistent with it.",
    request: { ...oneWay, Destino: "GIG", Adultos: 2, Criancas: 1, Companhia: 1300 },
    latencyMs: { "ota:voaja": 1_200, "ota:passagem-certa": 2_400, "ota:milhas-e-cia": 3_000, "ota:ceu-aberto": 1_800, "ota:bilhete-facil": 2_600 },
    perAirline: 3,
    pollMs: 1_000,
    ends: "completed",
  },
  {
    name: "livelo",
    description:
      "Livelo alone (Companhia 34), CNF-SDU: award seats on LATAM, GOL and Azul flights priced in Livelo points (not Smiles), IdCia 34 with the flying airline in CiaParceira.",
    request: { ...oneWay, Companhia: 34 },
    latencyMs: { livelo: 1_500 },
    perAirline: 3,
    pollMs: 1_000,
    ends: "completed",
  },
];

/**
 * The scenarios about what a buyer needs of a fare, for end-to-end proxy tests: fare families with their
 * bags, a negative fee (agency discount), and Livelo as its own points programme.
 */
export const FARE_SCENARIOS = ["fare-families", "agency-discount", "livelo"] as const;

/** A scenario by name; throws a RangeError naming the known ones when there is none. */
export const scenario = (name: string): Scenario => {
  const found = SCENARIOS.find((s) => s.name === name);
  if (!found) throw new RangeError(`unknown scenario ${name}; known: ${SCENARIOS.map((s) => s.name).join(", ")}`);
  return found;
};
