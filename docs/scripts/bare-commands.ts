/**
 * Commands a reader copies must run on the machine the Quick Start names: Node.js and npm, nothing else. A bare
 * `pnpm …` fails there (command not found), so every command shown is `npx -y pnpm@<version> …`, the version the
 * repository's `packageManager` names (Corepack is explained once, in CONTRIBUTING.md). A command is a shell code
 * block's line (or what follows `&&`, `;`, `|`, `$(`) or an inline code span starting with `pnpm`.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { REPO_DIR } from "./paths.js";
import { readerFiles } from "./reader-files.js";

/** The pnpm version of the repository (`packageManager`: `pnpm@<version>`). */
export const pnpmVersion = async (root = REPO_DIR): Promise<string> => {
  const manifest = JSON.parse(await readFile(path.join(root, "package.json"), "utf8")) as { packageManager?: string };
  const m = /^pnpm@(\d+\.\d+\.\d+)/.exec(manifest.packageManager ?? "");
  if (!m) throw new Error(`package.json: packageManager does not name a pnpm version (${manifest.packageManager})`);
  return m[1]!;
};

const SHELL = /^```(sh|bash|shell|console|zsh)\b/;

/** The commands of a Markdown text that run pnpm otherwise than as `npx -y pnpm@<version>`, with their lines. */
export const barePnpmIn = (text: string, version: string): readonly { readonly line: number; readonly command: string }[] => {
  const found: { line: number; command: string }[] = [];
  const good = `npx -y pnpm@${version}`;
  let shell = false;
  let fenced = false;
  text.split("\n").forEach((line, i) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      shell = fenced && SHELL.test(line.trim());
      return;
    }
    const candidates: string[] = [];
    if (shell) {
      const code = line.replace(/\s#.*$/, "");
      for (const part of code.split(/&&|\|\||;|\||\$\(/)) candidates.push(part.trim().replace(/^\$\s+/, "").replace(/^(\w+=\S*\s+)+/, ""));
    } else if (!fenced) {
      for (const m of line.matchAll(/`([^`]+)`/g)) candidates.push(m[1]!.trim());
    }
    for (const c of candidates) {
      if (/^pnpm(\s|$)/.test(c) || (/^npx\s+(-y\s+)?pnpm\b/.test(c) && !c.startsWith(`${good} `) && c !== good)) found.push({ line: i + 1, command: c });
    }
  });
  return found;
};

/** Every such command of the readers' Markdown files. */
export const findBarePnpm = async (): Promise<readonly { readonly where: string; readonly command: string }[]> => {
  const version = await pnpmVersion();
  const found: { where: string; command: string }[] = [];
  for (const { file, text } of await readerFiles()) {
    if (!file.endsWith(".md")) continue;
    for (const c of barePnpmIn(text, version)) found.push({ where: `${file}:${c.line}`, command: c.command });
  }
  return found;
};
