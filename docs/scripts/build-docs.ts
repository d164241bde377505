/**
 * `pnpm docs:build`: the generated pages (error catalogue, configuration reference, API reference), a check of
 * every code import of the pages and of every code block of the READMEs and pages (`check-code-blocks.ts`), the VitePress build into docs/.vitepress/dist (dead links fail it), then a
 * link check of the built site, anchors included, and a check of its search (`check-search.ts`). Offline; exits
 * non-zero on any problem.
 */
import path from "node:path";
import { build } from "vitepress";
import { checkLinks } from "./check-links.js";
import { checkSearch } from "./check-search.js";
import { checkCodeImports, checkInlineBlocks } from "./check-code-blocks.js";
import { checkSnippetImports } from "./check-snippets.js";
import { generate } from "./generate.js";
import { DOCS_DIR } from "./paths.js";

const fail = (what: string, problems: readonly string[]): never => {
  console.error(`${what}:\n  - ${problems.join("\n  - ")}`);
  process.exit(1);
};

await generate();
const snippets = await checkSnippetImports();
if (snippets.problems.length > 0) fail("code imports that do not resolve", snippets.problems);
const wholeImports = await checkCodeImports();
if (wholeImports.length > 0) fail("code imports that are not whole programs of an example", wholeImports);
const blocks = await checkInlineBlocks();
if (blocks.problems.length > 0) fail("code blocks that do not compile as whole files", blocks.problems);
await build(DOCS_DIR);
const dist = path.join(DOCS_DIR, ".vitepress/dist");
const links = await checkLinks(dist, "/docs/");
if (links.broken.length > 0) fail("broken links in the built site", links.broken);
const search = await checkSearch(dist, "/docs/");
if (search.problems.length > 0) fail("searches that do not find their page first", search.problems);
console.log(`docs: built into ${path.relative(process.cwd(), dist)}; ${snippets.count} code imports from the examples (whole files), ${blocks.count} code blocks compiled as whole files, ${links.checked} links checked, none broken; ${search.queries} searches find their page first`);
