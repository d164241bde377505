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
 * several instances can share it (a shared store) the way they share searches.
 */
export interface PaganteSettings {
  /** Every single-airline id with its switch, in the order of core's `AIRLINES`. */
  list(): Promise<readonly PaganteState[]>;
  /** Companhia ids whose switch is off, ascending. */
  hiddenCashAirlines(): Promise<readonly number[]>;
  set(airlineId: number, enabled: boolean): Promise<void>;
}

/**
 * The in-memory Pagante switch, starting from the configuration (`pagante`: id -> on/off; absent is on).
 *
 * @example
 * const pagante = createMemoryPaganteSettings({ "1": false });
 */
export const createMemoryPaganteSettings = (initial: Readonly<Partial<Record<string, boolean>>>): PaganteSettings => {
  const off = new Set(AIRLINES.filter((a) => initial[String(a.id)] === false).map((a) => a.id));
  return {
    list: () => Promise.resolve(AIRLINES.map((a) => ({ airlineId: a.id, enabled: !off.has(a.id) }))),
    hiddenCashAirlines: () => Promise.resolve([...off].sort((a, b) => a - b)),
    set: (airlineId, enabled) => {
      if (enabled) off.delete(airlineId);
      else off.add(airlineId);
      return Promise.resolve();
    },
  };
};
