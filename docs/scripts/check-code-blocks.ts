/**
 * Every code block a reader may take for a program is one, whole: imports, declarations and all.
 *
 * - A page's code import (`<<< @/../examples/...`) shows a whole file of an example, never a region of one (a region
 *   leaves out the imports and helpers it needs), and the file is one the example type-checks (`tsconfig.json`'s
 *   `include`) and `pnpm examples` runs; an HTML page or a `wrangler.toml` is shown whole too.
 * - A TypeScript or JavaScript block written in a README or a page (```ts, ```js) is type-checked as a file of its
 *   own, with the repository's strict compiler options, against the packages as a user imports them. A block that
 *   is not a program says so in its fence, ```text.
 *
 * The README blocks copied from an example (`<!-- snippet: <path> -->`) are that file byte for byte
 * (`scripts/check-snippets.ts` at the repository's root).
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { DOCS_DIR, REPO_DIR } from "./paths.js";
import { readerFiles } from "./reader-files.js";

const IMPORT = /^<<<\s+@\/(\S+?)(?:#([\w-]+))?(?:\{[^}]*\})?(?:\s+\[[^\]]*\])?\s*$/gm;
const BLOCK = /^```(ts|tsx|js|mjs|typescript|javascript)\b[^\n]*\n([\s\S]*?)^```/gm;
/** Where the blocks are written to be compiled (not committed). */
export const BLOCKS_DIR = path.join(DOCS_DIR, ".code-blocks");

/** A page's code imports that show a region, or a file no example type-checks or runs. */
export const checkCodeImports = async (): Promise<readonly string[]> => {
  const problems: string[] = [];
  for (const { file, text } of await readerFiles()) {
    if (!file.startsWith("docs/")) continue;
    for (const m of text.matchAll(IMPORT)) {
      const [, target, region] = m as unknown as [string, string, string | undefined];
      const shown = path.normalize(path.join("docs", target));
      if (region) problems.push(`${file}: <<< @/${target}#${region} shows a region; show the whole file (its imports and helpers included)`);
      const example = /^examples\/([^/]+)\/(.+)$/.exec(shown);
      if (!example) {
        problems.push(`${file}: <<< @/${target} is not a file of examples/ (which pnpm examples type-checks and runs)`);
        continue;
      }
      const [, name, inside] = example as unknown as [string, string, string];
      if (!/\.(ts|tsx|mts)$/.test(inside)) continue;
      const tsconfig = JSON.parse(await readFile(path.join(REPO_DIR, "examples", name, "tsconfig.json"), "utf8")) as { include?: string[] };
      if (!(tsconfig.include ?? []).some((inc) => inside === inc || inside.startsWith(`${inc}/`))) problems.push(`${file}: ${shown} is outside what examples/${name}/tsconfig.json type-checks`);
    }
  }
  return problems;
};

/** The TypeScript and JavaScript blocks written in the readers' Markdown files (not imported). */
export const inlineBlocks = async (): Promise<readonly { readonly where: string; readonly lang: string; readonly code: string }[]> => {
  const blocks: { where: string; lang: string; code: string }[] = [];
  for (const { file, text } of await readerFiles()) {
    if (!file.endsWith(".md")) continue;
    for (const m of text.matchAll(BLOCK)) {
      const before = text.slice(0, m.index);
      // A copy of an example file, checked byte for byte by scripts/check-snippets.ts.
      if (/<!-- snippet: \S+ -->\n$/.test(before)) continue;
      blocks.push({ where: `${file}:${before.split("\n").length}`, lang: m[1]!, code: m[2]! });
    }
  }
  return blocks;
};

/** Type-checks every inline block as a file of its own; the compiler's complaints, each naming its block. */
export const checkInlineBlocks = async (): Promise<{ readonly problems: readonly string[]; readonly count: number }> => {
  const blocks = await inlineBlocks();
  await rm(BLOCKS_DIR, { recursive: true, force: true });
  await mkdir(BLOCKS_DIR, { recursive: true });
  const names = new Map<string, string>();
  for (const [i, b] of blocks.entries()) {
    const name = `block-${String(i).padStart(3, "0")}.${/^(js|mjs|javascript)$/.test(b.lang) ? "mjs" : "ts"}`;
    names.set(name, b.where);
    await writeFile(path.join(BLOCKS_DIR, name), b.code);
  }
  await writeFile(
    path.join(BLOCKS_DIR, "tsconfig.json"),
    JSON.stringify({ extends: "../../tsconfig.base.json", compilerOptions: { noEmit: true, types: ["node"], allowJs: true, checkJs: true, noUnusedLocals: false }, include: ["*.ts", "*.mjs"] }),
  );
  const tsc = path.join(DOCS_DIR, "node_modules", ".bin", "tsc");
  const output = await promisify(execFile)(tsc, ["-p", path.join(BLOCKS_DIR, "tsconfig.json"), "--pretty", "false"], { cwd: DOCS_DIR, maxBuffer: 16 * 1024 * 1024 }).then(
    () => "",
    (e: { stdout?: string }) => e.stdout ?? String(e),
  );
  const problems = output
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => l.replace(/^\.code-blocks\/(block-\d+\.\w+)\((\d+),\d+\)/, (_, name: string, line: string) => `${names.get(name) ?? name} (line ${line} of the block)`));
  return { problems, count: blocks.length };
};
