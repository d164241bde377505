/**
 * Every code import of the pages (`<<< @/path` and `<<< @/path#region`) names a file that exists and, when it
 * names a region, a file with that `#region`: VitePress itself only prints a warning into the page otherwise.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { DOCS_DIR } from "./paths.js";

const IMPORT = /^<<<\s+@\/(\S+?)(?:#([\w-]+))?(?:\{[^}]*\})?(?:\s+\[[^\]]*\])?\s*$/gm;

/** The problems found (empty when every import resolves), and how many imports were checked. */
export const checkSnippetImports = async (): Promise<{ readonly problems: readonly string[]; readonly count: number }> => {
  const problems: string[] = [];
  let count = 0;
  for (const entry of await readdir(DOCS_DIR, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".md") || entry.parentPath.includes("node_modules")) continue;
    const page = path.join(entry.parentPath, entry.name);
    for (const m of (await readFile(page, "utf8")).matchAll(IMPORT)) {
      count++;
      const [, file, region] = m as unknown as [string, string, string | undefined];
      const text = await readFile(path.join(DOCS_DIR, file), "utf8").catch(() => undefined);
      const where = `${path.relative(DOCS_DIR, page)}: <<< @/${file}${region ? `#${region}` : ""}`;
      if (text === undefined) problems.push(`${where}: no such file`);
      else if (region && !(text.includes(`#region ${region}`) && text.includes(`#endregion ${region}`))) problems.push(`${where}: no region "${region}" in the file`);
    }
  }
  return { problems, count };
};
