import { queryKey, type SearchSource } from "@voar/core";

/** What happened to the sources' requests: which searches started, and which were aborted before they finished. */
export interface SourceLog {
  /** `<source id> <query key>` of every search a source started. */
  readonly started: string[];
  /** The same, for every search whose AbortSignal fired before the source had finished. */
  readonly aborted: string[];
}

/**
 * Wraps sources so that a program can show what the engine did to them: each source still runs as it
 * would, and its start and its abort (the signal the engine hands it) are written down.
 */
export const observed = (sources: readonly SearchSource[]): { readonly sources: SearchSource[]; readonly log: SourceLog } => {
  const log: SourceLog = { started: [], aborted: [] };
  const wrapped = sources.map(
    (source): SearchSource => ({
      ...source,
      async *search(query, signal) {
        const name = `${source.id} ${queryKey(query)}`;
        log.started.push(name);
        let finished = false;
        signal.addEventListener("abort", () => {
          if (!finished) log.aborted.push(name);
        });
        yield* source.search(query, signal);
        finished = true;
      },
    }),
  );
  return { sources: wrapped, log };
};

/** A check of what a program shows: stops the program, non-zero exit, when the behaviour is wrong. */
export const expect = (condition: boolean, what: string): void => {
  if (!condition) throw new Error(`expected: ${what}`);
  console.log(`  ✓ ${what}`);
};
