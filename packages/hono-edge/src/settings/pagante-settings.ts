import { AIRLINES } from "@voar/core";

/** The Pagante switch of one airline. */
export interface PaganteState {
  /** Companhia id. */
  readonly airlineId: number;
  /** On: its cash ("pagante", `PontosAdulto` -1) flights are shown. Off: only flights bought with miles. */
  readonly enabled: boolean;
}

/**
 * The per-airline Pagante switch, changed at run time by the operator endpoint. A port, async, so that
 * several instances share it: the Node entry keeps it in Redis with the searches (`redisPaganteSettings` of
 * `@voar/hono-edge/redis`), a Worker in a Durable Object (`durablePaganteSettings`); one change applies to every
 * instance.
 */
export interface PaganteSettings {
  /** Every single-airline id with its switch, in the order of core's `AIRLINES`. */
  list(): Promise<readonly PaganteState[]>;
  /** Companhia ids whose switch is off, ascending. */
  hiddenCashAirlines(): Promise<readonly number[]>;
  /** Sets one airline's switch; resolves to its state just before (for the audit log). */
  set(airlineId: number, enabled: boolean): Promise<boolean>;
}

/** Every airline's switch from the ids whose switch is off, in the order of core's `AIRLINES`. */
export const paganteList = (off: ReadonlySet<number>): readonly PaganteState[] => AIRLINES.map((a) => ({ airlineId: a.id, enabled: !off.has(a.id) }));

/** The ids whose switch the configuration (`pagante`: id -> on/off, absent is on) turns off. */
export const paganteOffIn = (initial: Readonly<Partial<Record<string, boolean>>>): Set<number> => new Set(AIRLINES.filter((a) => initial[String(a.id)] === false).map((a) => a.id));

/**
 * The in-memory Pagante switch, starting from the configuration (`pagante`: id -> on/off; absent is on).
 *
 * @example
 * const pagante = createMemoryPaganteSettings({ "1": false });
 */
export const createMemoryPaganteSettings = (initial: Readonly<Partial<Record<string, boolean>>>): PaganteSettings => {
  const off = paganteOffIn(initial);
  return {
    list: () => Promise.resolve(paganteList(off)),
    hiddenCashAirlines: () => Promise.resolve([...off].sort((a, b) => a - b)),
    set: (airlineId, enabled) => {
      const before = !off.has(airlineId);
      if (enabled) off.delete(airlineId);
      else off.add(airlineId);
      return Promise.resolve(before);
    },
  };
};
