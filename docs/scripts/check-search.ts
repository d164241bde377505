/**
 * The built site's search, as a reader's browser runs it (VitePress's MiniSearch options and the site's own
 * `searchOptions`): each word a page is written for finds that page first. The words come from the code's own
 * tables, so a variable or an error code added later is checked without naming it here: every `VOAR_*` setting
 * finds the configuration reference, every error code the error catalogue; and a few words of the guides find
 * their section.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ENV_VARS, ERROR_TABLE } from "@voar/hono-edge";
import MiniSearch from "minisearch";
import { miniSearchOptions, searchOptions } from "../.vitepress/search-ranking.js";

/** Words of the guides, and the page (and section) each must find first. */
const GUIDE_WORDS: readonly (readonly [string, string])[] = [
  ["CORS", "/client/browser.html#"],
  ["Corepack", "/start/install.html"],
  ["VOAR_STRICT_ENV", "/reference/generated/configuration.html"],
];

/** What each query found first, where another page was expected. */
export const checkSearch = async (dist: string, base = "/docs/"): Promise<{ readonly problems: readonly string[]; readonly queries: number }> => {
  const chunks = path.join(dist, "assets", "chunks");
  const file = (await readdir(chunks)).find((f) => f.startsWith("@localSearchIndexroot") && f.endsWith(".js"));
  if (!file) return { problems: [`no local search index in ${chunks}`], queries: 0 };
  const { default: json } = (await import(pathToFileURL(path.join(chunks, file)).href)) as { default: string };
  // The options of VitePress's VPLocalSearchBox, then the site's.
  const index = MiniSearch.loadJSON(json, {
    fields: ["title", "titles", "text"],
    storeFields: ["title", "titles"],
    searchOptions: { fuzzy: 0.2, prefix: true, boost: { title: 4, text: 2, titles: 1 }, ...searchOptions },
    ...miniSearchOptions,
  });
  const expected: [string, string][] = [
    ...Object.keys(ENV_VARS).map((name): [string, string] => [name, "/reference/generated/configuration.html"]),
    ...[...new Set(Object.values(ERROR_TABLE).map((e) => e.codigo))].map((code): [string, string] => [code, "/reference/generated/errors.html"]),
    ...GUIDE_WORDS.map(([q, page]): [string, string] => [q, page]),
  ];
  const problems: string[] = [];
  for (const [query, page] of expected) {
    const first = index.search(query)[0]?.id as string | undefined;
    if (!first?.startsWith(`${base.replace(/\/$/, "")}${page}`)) problems.push(`"${query}" finds ${first ?? "nothing"} first, not ${page}`);
  }
  return { problems, queries: expected.length };
};
