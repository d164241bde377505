/**
 * Where what the adapter learns of the upstream lives between the instances of a deployment: each airline's times
 * (per route, per market and overall) and whether it sells on each route. It is a set of short lists, newest value
 * first: a new instance reads them before its first searches, so a route one instance learned costs the learned
 * requests on every instance. The default keeps them in this process; `@voar/hono-edge/redis` shares them through
 * Redis.
 */

/** One value to put first in a list, which keeps its `max` newest values. */
export interface PacingEntry {
  readonly key: string;
  readonly value: string;
  readonly max: number;
}

/** Short lists of what the adapter learned, shared by the instances. */
export interface PacingStore {
  /** Puts each value first in its list, each list kept to its `max` newest values. */
  push(entries: readonly PacingEntry[]): Promise<void>;
  /** The lists of `keys`, newest first (a list never written: empty), in the order of `keys`. */
  read(keys: readonly string[]): Promise<readonly (readonly string[])[]>;
}

/** Lists kept at most by {@link memoryPacingStore}, the least recently written dropped first. */
const MAX_LISTS = 50_000;

/**
 * The lists in this process's memory: the default (one instance), and what a shared store falls back on while it
 * cannot answer.
 *
 * @example
 * const pacing = memoryPacingStore();
 */
export const memoryPacingStore = (): PacingStore => {
  const lists = new Map<string, string[]>();
  return {
    push: (entries) => {
      for (const e of entries) {
        const list = lists.get(e.key) ?? [];
        lists.delete(e.key);
        list.unshift(e.value);
        if (list.length > e.max) list.length = e.max;
        lists.set(e.key, list);
        if (lists.size > MAX_LISTS) lists.delete(lists.keys().next().value!);
      }
      return Promise.resolve();
    },
    read: (keys) => Promise.resolve(keys.map((k) => [...(lists.get(k) ?? [])])),
  };
};
