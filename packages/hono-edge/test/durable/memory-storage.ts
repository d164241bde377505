import type { DurableObjectState, DurableStorage } from "../../src/durable/workers-types.js";

/**
 * A Durable Object's storage in memory, as the runtime behaves for what the store uses: values are copied
 * (structured clone), `list` is in key order, a batch is at most 128 entries and a value at most 128 KiB
 * (the limits of the key-value API; SQLite-backed objects allow more).
 */
export const memoryStorage = () => {
  const data = new Map<string, unknown>();
  const storage: DurableStorage = {
    list: <T>({ prefix }: { prefix: string }) =>
      Promise.resolve(new Map([...data.entries()].filter(([k]) => k.startsWith(prefix)).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, structuredClone(v) as T]))),
    put: (entries) => {
      const list = Object.entries(entries);
      if (list.length > 128) throw new RangeError("more than 128 entries in one put");
      for (const [k, v] of list) {
        if (typeof v === "string" && v.length * 2 > 128 * 1024) throw new RangeError(`value of ${k} over 128 KiB`);
        data.set(k, structuredClone(v));
      }
      return Promise.resolve();
    },
    delete: (keys) => {
      if (keys.length > 128) throw new RangeError("more than 128 keys in one delete");
      return Promise.resolve(keys.filter((k) => data.delete(k)).length);
    },
  };
  return { storage, data };
};

/**
 * A Durable Object's state over {@link memoryStorage}, with its alarm: `fire()` does what the runtime does
 * when the alarm time comes (clears it, then calls the handler given). `ready` settles when the work the
 * constructor ran under `blockConcurrencyWhile` did (the runtime holds requests until then).
 */
export const memoryObjectState = (objectId: string) => {
  const { storage, data } = memoryStorage();
  let alarm: number | null = null;
  let ready: Promise<unknown> = Promise.resolve();
  const state: DurableObjectState = {
    id: { toString: () => objectId },
    storage: {
      ...storage,
      getAlarm: () => Promise.resolve(alarm),
      setAlarm: (t) => {
        alarm = t;
        return Promise.resolve();
      },
    },
    blockConcurrencyWhile: <T>(callback: () => Promise<T>) => {
      const p = callback();
      ready = p;
      return p;
    },
  };
  return {
    state,
    data,
    ready: () => ready,
    alarm: () => alarm,
    fire: async (handler: () => Promise<void>) => {
      alarm = null;
      await handler();
    },
  };
};
