/**
 * The READMEs' code that comes from example files: a fenced block right after `<!-- snippet: <path> -->` must be
 * that file, byte for byte (the file is the one that runs, in `pnpm examples`). Exits non-zero, naming the
 * README and the file, when one has drifted; `--write` copies the files into the READMEs instead.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const READMES = ["README.md", "packages/core/README.md"];
const SNIPPET = /<!-- snippet: (\S+) -->\n```(\w+)\n([\s\S]*?)```/g;

const write = process.argv.includes("--write");
const drifted: string[] = [];
let checked = 0;
for (const readme of READMES) {
  const file = path.join(ROOT, readme);
  const text = await readFile(file, "utf8");
  let next = text;
  for (const match of text.matchAll(SNIPPET)) {
    const [block, source, lang, code] = match as unknown as [string, string, string, string];
    const expected = await readFile(path.join(ROOT, source), "utf8");
    checked++;
    if (code === expected) continue;
    if (write) next = next.replace(block, `<!-- snippet: ${source} -->\n\`\`\`${lang}\n${expected}\`\`\``);
    else drifted.push(`${readme}: the block after <!-- snippet: ${source} --> differs from ${source}`);
  }
  if (write && next !== text) await writeFile(file, next);
}
if (checked === 0) drifted.push(`no <!-- snippet: ... --> block found in ${READMES.join(", ")}`);
if (drifted.length > 0) {
  console.error(`${drifted.join("\n")}\nCopy the files in with: pnpm exec tsx scripts/check-snippets.ts --write`);
  process.exit(1);
}
console.log(`README snippets: ${checked} blocks match their example files`);
