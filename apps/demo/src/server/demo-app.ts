import { serveStatic } from "@hono/node-server/serve-static";
import type { AirportDirectory } from "@voar/core";
import { Hono } from "hono";
import { AIRPORTS_PATH, DEMO_CONFIG_PATH, type AirportSuggestion, type DemoConfig } from "../shared/demo-config.js";
import { docsSite } from "./docs-site.js";

/** What the demo app serves besides the page. */
export interface DemoAppDeps {
  /** The Voar service (`createApp` of `@voar/hono-edge`): everything under its base path, and `/health`. */
  readonly service: { fetch(request: Request): Response | Promise<Response> };
  /** Base path of the service, e.g. `/api`. */
  readonly basePath: string;
  /** The page's settings, served at `/demo-config.json`. */
  readonly config: DemoConfig;
  /** Airports of the autocomplete. */
  readonly airports: AirportDirectory;
  /** Folder of the built page (index.html and assets). */
  readonly webRoot: string;
  /** Folder of the built documentation site, served under `/docs/` (see `docs-site.ts`). */
  readonly docsRoot?: string | undefined;
  /** Routes of the demo's own (the price alerts' webhook receiver, `demo-alerts.ts`), added before the page. */
  readonly extraRoutes?: ((app: Hono) => void) | undefined;
}

const MAX_QUERY = 64;

/**
 * The demo as one Hono app: the service at its base path and `/health`, the page's settings and airport
 * autocomplete, and the built page at `/`. Hashed assets are cached for good; the page itself never.
 */
export const createDemoApp = (deps: DemoAppDeps): Hono => {
  const app = new Hono();
  const toService = (c: { req: { raw: Request } }) => deps.service.fetch(c.req.raw);
  app.all(`${deps.basePath}/*`, toService);
  app.get("/health", toService);

  app.get(DEMO_CONFIG_PATH, (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(deps.config);
  });
  app.get(AIRPORTS_PATH, (c) => {
    const q = (c.req.query("q") ?? "").slice(0, MAX_QUERY);
    const found: readonly AirportSuggestion[] = deps.airports.search(q, 8);
    c.header("Cache-Control", "public, max-age=3600");
    return c.json(found);
  });

  // The page links its icon; pages that do not (the documentation site, the API's docs) get it at the usual place.
  app.get("/favicon.ico", (c) => c.redirect("/favicon.svg", 301));
  deps.extraRoutes?.(app);

  if (deps.docsRoot !== undefined) {
    app.get("/docs", (c) => c.redirect("/docs/", 301));
    app.use("/docs/*", docsSite(deps.docsRoot));
  }

  app.use(
    "/*",
    async (c, next) => {
      // Set before the file is read, so that it is on the response whatever the runtime does with it.
      c.header("Cache-Control", c.req.path.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache");
      await next();
    },
    serveStatic({ root: deps.webRoot }),
  );
  app.notFound((c) => c.json({ erro: `Nada em ${c.req.path}. A página está em /, a API em ${deps.basePath}.` }, 404));
  return app;
};
