import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkLinks } from "../scripts/check-links.js";

let site: string;
const page = async (file: string, html: string) => {
  await mkdir(path.dirname(path.join(site, file)), { recursive: true });
  await writeFile(path.join(site, file), html);
};
afterEach(async () => {
  await rm(site, { recursive: true, force: true });
});

describe("the link check of the built site", () => {
  it("passes links to pages and anchors that exist, relative or under the base, and ignores other sites", async () => {
    site = await mkdtemp(path.join(tmpdir(), "voar-docs-links-"));
    await page("index.html", '<h2 id="start">x</h2><a href="/docs/core/search.html#the-snapshot">a</a><a href="#start">b</a><a href="https://example.com/x">c</a><a href="/docs/">d</a>');
    await page("core/search.html", '<h2 id="the-snapshot">s</h2><a href="../index.html#start">up</a><a href="./search">clean</a>');
    expect(await checkLinks(site, "/docs/")).toEqual({ broken: [], checked: 5 });
  });

  it("names each page that links to a missing page, a missing anchor, or outside the base", async () => {
    site = await mkdtemp(path.join(tmpdir(), "voar-docs-links-"));
    await page("index.html", '<a href="/docs/missing.html">a</a><a href="/docs/core/search.html#nowhere">b</a><a href="/elsewhere/page.html">c</a>');
    await page("core/search.html", '<h2 id="the-snapshot">s</h2>');
    const { broken } = await checkLinks(site, "/docs/");
    expect(broken).toEqual([
      "index.html: /docs/missing.html leads to no page",
      "index.html: /docs/core/search.html#nowhere names an anchor the page does not have",
      "index.html: /elsewhere/page.html is outside the site's base /docs/",
    ]);
  });
});
