import type { Logger } from "../logging/logger.js";

/** The exit code of an instance that left because it could not reach its store (EX_TEMPFAIL: try again). */
export const STORE_GONE_EXIT_CODE = 75;

/** What {@link exitWhenStoreGone} watches: the store's availability (the Redis guard's view). */
export interface WatchedStore {
  available(): boolean;
  onChange(listener: (available: boolean) => void): () => void;
}

/**
 * Stops the instance (`stop`, with {@link STORE_GONE_EXIT_CODE}) once its store has been unavailable for
 * `afterMs` in a row, logging `store.unreachable_exit` first: behind a supervisor that restarts what exits, an
 * instance whose connections are stuck in a state it cannot leave starts afresh, instead of answering 503 for good
 * while its peers are served. `afterMs` 0: never. Returns its removal.
 */
export const exitWhenStoreGone = (store: WatchedStore, o: { readonly afterMs: number; readonly logger: Logger; readonly stop: (code: number) => void }): (() => void) => {
  if (o.afterMs <= 0) return () => undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let since: number | undefined;
  const arm = () => {
    since = Date.now();
    timer = setTimeout(() => {
      if (store.available()) return;
      o.logger.log({ level: "error", msg: "store.unreachable_exit", unavailableMs: Date.now() - (since ?? Date.now()), exitCode: STORE_GONE_EXIT_CODE });
      o.stop(STORE_GONE_EXIT_CODE);
    }, o.afterMs);
  };
  const unwatch = store.onChange((available) => {
    clearTimeout(timer);
    timer = undefined;
    if (!available) arm();
  });
  if (!store.available()) arm();
  return () => {
    unwatch();
    clearTimeout(timer);
  };
};
