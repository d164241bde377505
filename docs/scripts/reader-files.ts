/**
 * The files a reader copies from: the READMEs (the repository's, each package's, app's and example's, the changesets'), the
 * contributor's guide, every page of the site (not the generated ones: their sources are checked where they are
 * written), and every file of the examples. Found by walking the folders, so a page or an example added later is
 * checked without naming it here. CHANGELOG.md files are history, not instructions: left out.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { REPO_DIR } from "./paths.js";

const TEXT = /\.(md|ts|tsx|mts|js|mjs|html|toml|json|css|ya?ml|sh)$/;
const SKIP_DIRS = new Set(["node_modules", "dist", ".vitepress/dist", ".vitepress/cache", ".turbo", "artifacts", ".wrangler", "reference/generated", "api"]);

const walk = async (dir: string, keep: (file: string) => boolean, under = ""): Promise<string[]> => {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const rel = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !SKIP_DIRS.has(rel)) found.push(...(await walk(path.join(dir, entry.name), keep, rel)));
    } else if (keep(entry.name)) found.push(path.join(dir, entry.name));
  }
  return found;
};

/** A file a reader copies from, as a path relative to the repository's root, with its text. */
export interface ReaderFile {
  readonly file: string;
  readonly text: string;
}

/** The reader's files of the repository (see above), relative to `root`. */
export const readerFiles = async (root = REPO_DIR): Promise<readonly ReaderFile[]> => {
  const isReadme = (name: string) => name === "README.md";
  const files = [
    ...["README.md", "CONTRIBUTING.md", ".changeset/README.md"].map((f) => path.join(root, f)),
    ...(await walk(path.join(root, "packages"), isReadme)).filter((f) => !f.includes(`${path.sep}test${path.sep}`)),
    ...(await walk(path.join(root, "apps"), isReadme)),
    ...(await walk(path.join(root, "docs"), (name) => name.endsWith(".md") && !isReadme(name))),
    ...(await walk(path.join(root, "examples"), (name) => TEXT.test(name))),
  ];
  const read = await Promise.all(files.map(async (f) => ({ file: path.relative(root, f), text: await readFile(f, "utf8").catch(() => undefined) })));
  return read.filter((f): f is ReaderFile => f.text !== undefined && path.basename(f.file) !== "CHANGELOG.md");
};

/** The `@example` sections of a source file's doc comments, with their line numbers: what the API reference shows. */
export const exampleLines = (text: string): readonly { readonly line: number; readonly text: string }[] => {
  const lines = text.split("\n");
  const out: { line: number; text: string }[] = [];
  let inComment = false;
  let inExample = false;
  lines.forEach((l, i) => {
    if (/^\s*\/\*\*/.test(l)) inComment = true;
    if (inComment && /^\s*\*?\s*@example\b/.test(l)) inExample = true;
    else if (inComment && /^\s*\*\s*@\w+/.test(l)) inExample = false;
    if (inComment && inExample && !/^\s*\*\/\s*$/.test(l)) out.push({ line: i + 1, text: l });
    if (inComment && l.includes("*/")) inComment = inExample = false;
  });
  return out;
};

/** The doc comments' examples of every package's sources (`packages/<name>/src/**.ts`), file by file. */
export const sourceExamples = async (root = REPO_DIR): Promise<readonly { readonly file: string; readonly lines: ReturnType<typeof exampleLines> }[]> => {
  const out: { file: string; lines: ReturnType<typeof exampleLines> }[] = [];
  for (const pkg of await readdir(path.join(root, "packages"))) {
    for (const file of await walk(path.join(root, "packages", pkg, "src"), (name) => name.endsWith(".ts"))) {
      const lines = exampleLines(await readFile(file, "utf8"));
      if (lines.length > 0) out.push({ file: path.relative(root, file), lines });
    }
  }
  return out;
};
