import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type DefaultTheme } from "vitepress";
import { miniSearchOptions, searchOptions } from "./search-ranking.js";

/** The API reference's sidebar, written by TypeDoc (scripts/api-reference.ts) next to its pages. */
const apiSidebarFile = fileURLToPath(new URL("../api/typedoc-sidebar.json", import.meta.url));
const apiSidebar: DefaultTheme.SidebarItem[] = existsSync(apiSidebarFile) ? (JSON.parse(readFileSync(apiSidebarFile, "utf8")) as DefaultTheme.SidebarItem[]) : [];

const guide: DefaultTheme.SidebarItem[] = [
  {
    text: "Start",
    items: [
      { text: "What Voar is", link: "/" },
      { text: "Install", link: "/start/install" },
      { text: "Concepts and a search's flow", link: "/start/concepts" },
      { text: "The demo", link: "/start/demo" },
      { text: "Changelog", link: "/reference/generated/changelog" },
    ],
  },
  {
    text: "Core in your pipeline",
    items: [
      { text: "search() as an Observable", link: "/core/search" },
      { text: "Search boxes, first results, races", link: "/core/pipelines" },
      { text: "Your own supplier as a source", link: "/core/own-supplier" },
      { text: "The simulator", link: "/core/simulator" },
      { text: "Effect users", link: "/core/effect" },
    ],
  },
  {
    text: "Client SDK",
    items: [
      { text: "The typed client", link: "/client/" },
      { text: "In a browser", link: "/client/browser" },
    ],
  },
  {
    text: "Service",
    items: [
      { text: "Endpoints", link: "/service/endpoints" },
      { text: "Price calendar (flexible dates)", link: "/service/calendar" },
      { text: "Price alerts (avise-me quando baixar)", link: "/service/alerts" },
      { text: "In your own Hono app", link: "/service/hono-app" },
      { text: "Error catalogue", link: "/reference/generated/errors" },
      { text: "Configuration reference", link: "/reference/generated/configuration" },
      { text: "Legacy clients and migration", link: "/service/legacy" },
      { text: "Wire semantics", link: "/wire-semantics" },
    ],
  },
  {
    text: "Deploy",
    items: [
      { text: "Node + Redis", link: "/deploy/node-redis" },
      { text: "Docker and compose", link: "/deploy/docker" },
      { text: "Cloudflare Workers", link: "/deploy/cloudflare" },
      { text: "Deno and Bun", link: "/deploy/deno-bun" },
      { text: "Scaling", link: "/deploy/scaling" },
      { text: "Metrics and traces", link: "/deploy/observability" },
    ],
  },
  {
    text: "Testing with Voar",
    items: [{ text: "Fixtures, fake upstream, virtual time", link: "/testing/" }],
  },
  { text: "API reference", link: "/api/" },
];

/**
 * The documentation site. Served by the demo under /docs (its `base`); built by `pnpm docs:build` into
 * docs/.vitepress/dist. Dead internal links fail the build (VitePress's own check, and scripts/check-links.ts
 * over the built pages, anchors included).
 */
export default defineConfig({
  title: "Voar",
  description: "Progressive flight search for TypeScript: an RxJS core, an edge HTTP service and a typed client.",
  base: "/docs/",
  lang: "en",
  cleanUrls: false,
  lastUpdated: false,
  // The repository's own READMEs and notes are not pages of the site.
  srcExclude: ["**/README.md", "node_modules/**", "scripts/**"],
  // Links to a local service (the demo at http://localhost:8787) are examples, not pages of the site.
  ignoreDeadLinks: "localhostLinks",
  // The local search index is one chunk; it is served from this machine, not a CDN.
  vite: { build: { chunkSizeWarningLimit: 4_000 } },
  themeConfig: {
    nav: [
      { text: "Guide", link: "/start/concepts" },
      { text: "API reference", link: "/api/" },
    ],
    sidebar: { "/api/": [{ text: "Guide", link: "/" }, ...apiSidebar], "/": guide },
    // Guides and the generated references above the API reference for their own words (see search-ranking.ts).
    search: { provider: "local", options: { miniSearch: { options: miniSearchOptions, searchOptions } } },
    outline: [2, 3],
  },
});
