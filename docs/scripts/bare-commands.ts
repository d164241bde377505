/**
 * Commands a reader copies must run on the machine the Quick Start names: Node.js and npm, nothing else. A bare
 * `pnpm …` fails there (command not found), so every command shown is `npx -y pnpm@<version> …`, the version the
 * repository's `packageManager` names (Corepack is explained once, in CONTRIBUTING.md). A command is a shell code
 * block's line (or what follows `&&`, `;`, `|`, `$(`) or an inline code span (a line break may split it) starting
 * with `pnpm`, once the environment variables set before it are left out.
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

/** Whether a command runs pnpm otherwise than as `npx -y pnpm@<version>` (`good`). */
const isBare = (command: string, good: string): boolean =>
  /^pnpm(\s|$)/.test(command) || (/^npx\s+(-y\s+)?pnpm\b/.test(command) && !command.startsWith(`${good} `) && command !== good);

/** A command as a reader copies it: one line, without the environment variables set before it. */
const commandOf = (text: string): string => text.replace(/\s+/g, " ").trim().replace(/^\$\s+/, "").replace(/^(\w+=\S*\s+)+/, "");

/**
 * The commands of a Markdown text that run pnpm otherwise than as `npx -y pnpm@<version>`, with their lines: in
 * shell code blocks, line by line; in the prose, every inline code span, also one that a line break splits (the
 * line given is where it starts).
 */
export const barePnpmIn = (text: string, version: string): readonly { readonly line: number; readonly command: string }[] => {
  const found: { line: number; command: string }[] = [];
  const good = `npx -y pnpm@${version}`;
  let shell = false;
  let fenced = false;
  /** The prose since the last fence, with the line each of its lines is. */
  let prose: { text: string; line: number }[] = [];
  const readProse = () => {
    const joined = prose.map((p) => p.text).join("\n");
    for (const m of joined.matchAll(/`([^`]+)`/g)) {
      if (/\n\s*\n/.test(m[1]!)) continue;
      const command = commandOf(m[1]!);
      if (isBare(command, good)) found.push({ line: prose[joined.slice(0, m.index).split("\n").length - 1]!.line, command });
    }
    prose = [];
  };
  text.split("\n").forEach((line, i) => {
    if (/^\s*```/.test(line)) {
      if (!fenced) readProse();
      fenced = !fenced;
      shell = fenced && SHELL.test(line.trim());
      return;
    }
    if (!fenced) {
      prose.push({ text: line, line: i + 1 });
      return;
    }
    if (!shell) return;
    const code = line.replace(/\s#.*$/, "");
    for (const part of code.split(/&&|\|\||;|\||\$\(/)) {
      const command = commandOf(part);
      if (isBare(command, good)) found.push({ line: i + 1, command });
    }
  });
  readProse();
  return found.sort((a, b) => a.line - b.line);
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
