import { createFakeUpstream, createSimulator, liveBackend, type FakeAuthOptions, type FaultRule, type LiveBackendOptions, type SimulatorOptions } from "@voar/testing";
import type { SearchQuery } from "@voar/core";

/** The agency login the live fake upstream accepts in these tests. */
export const agency = { username: "agencia", password: "segredo" } as const;

/** A live fake upstream over the simulator. */
export const liveUpstream = (
  opts: {
    readonly simulator?: SimulatorOptions;
    readonly faults?: readonly FaultRule[];
    readonly loginFaults?: readonly FaultRule[];
    readonly auth?: FakeAuthOptions;
    readonly backend?: Partial<LiveBackendOptions>;
  } = {},
) =>
  createFakeUpstream({
    backend: liveBackend({ sources: createSimulator(opts.simulator).sources, ...opts.backend }),
    auth: opts.auth ?? { accounts: [agency] },
    faults: opts.faults,
    loginFaults: opts.loginFaults,
  });

/** A query of the tests (dates after the fake clock's "today"). */
export const testQuery = (mode: SearchQuery["mode"] = { kind: "all-airlines" }, returnDate?: string): SearchQuery => ({
  origin: "CNF",
  destination: "SDU",
  departureDate: "2026-09-15",
  ...(returnDate ? { returnDate } : {}),
  passengers: { adults: 1, children: 0, infants: 0 },
  mode,
});

/** The fake clock's start: before the query dates. */
export const TEST_NOW = Date.UTC(2026, 5, 1, 12);
