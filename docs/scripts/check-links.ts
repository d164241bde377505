/**
 * A link check over the built site: every internal link of every page (`href` under the site's base, and
 * `#anchor`s) leads to a page that exists and, when it names an anchor, to an element with that id. VitePress
 * checks links between Markdown pages while it builds; this also checks anchors and what the theme and the
 * generated reference link to.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

const decode = (s: string) => s.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'");

/** Broken links of the site built in `dist` with `base` (e.g. `/docs/`), one line each, and the links checked. */
export const checkLinks = async (dist: string, base: string): Promise<{ readonly broken: readonly string[]; readonly checked: number }> => {
  const pages = new Map<string, Set<string>>();
  for (const entry of await readdir(dist, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".html")) continue;
    const file = path.join(entry.parentPath, entry.name);
    const html = await readFile(file, "utf8");
    pages.set(path.relative(dist, file), new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => decode(m[1]!))));
  }
  const broken: string[] = [];
  let checked = 0;
  for (const [page, _ids] of pages) {
    const html = await readFile(path.join(dist, page), "utf8");
    // Links of the page's content and navigation (not the scripts' and styles' assets).
    for (const m of html.matchAll(/<a\b[^>]*\shref="([^"]*)"/g)) {
      const href = decode(m[1]!);
      if (/^[a-z]+:/i.test(href) || href.startsWith("//")) continue;
      checked++;
      const [target = "", anchor] = href.split("#");
      let file: string;
      if (target === "") file = page;
      else if (target.startsWith("/")) {
        if (!target.startsWith(base)) {
          broken.push(`${page}: ${href} is outside the site's base ${base}`);
          continue;
        }
        file = target.slice(base.length);
      } else file = path.join(path.dirname(page), target);
      file = decodeURIComponent(file);
      if (file === "" || file.endsWith("/")) file += "index.html";
      else if (!file.endsWith(".html") && pages.has(`${file}.html`)) file += ".html";
      const ids = pages.get(path.normalize(file));
      if (!ids) broken.push(`${page}: ${href} leads to no page`);
      else if (anchor && !ids.has(decodeURIComponent(anchor))) broken.push(`${page}: ${href} names an anchor the page does not have`);
    }
  }
  return { broken, checked };
};
