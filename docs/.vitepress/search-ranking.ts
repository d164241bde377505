/**
 * How the site's local search reads and ranks its pages.
 *
 * - Words are split at spaces and punctuation, but not at `_`: a variable (`VOAR_STORE_REDIS_URL`) or an error code
 *   (`FALHA_FORNECEDOR`) is one word, found where it is written, not wherever "voar", "store", "redis" and "url"
 *   are (MiniSearch's own splitting ranked the home page first for `VOAR_AGENCIES`).
 * - The API reference repeats every name the guides use (a variable in `ENV_VARS`, a code in `ERROR_TABLE`), in more
 *   sections than any guide: its sections weigh a quarter, and the generated references (configuration, errors)
 *   twice a guide, so that a page written for a word comes first for it.
 *
 * `scripts/check-search.ts` checks it on the built index. VitePress hands these options to the browser as source
 * text: the functions may use nothing from outside them.
 */
export const miniSearchOptions = {
  tokenize: (text: string): string[] => text.split(/[^\p{L}\p{N}_]+/u).filter((t) => t.length > 0),
};

export const searchOptions = {
  boostDocument: (id: string): number => (id.includes("/api/") ? 0.25 : id.includes("/reference/generated/") ? 2 : 1),
};
