import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serveStatic } from "@hono/node-server/serve-static";
import type { MiddlewareHandler } from "hono";

/** Where `pnpm docs:build` writes the documentation site (VitePress, built for the base `/docs/`). */
export const DOCS_DIST = fileURLToPath(new URL("../../../../docs/.vitepress/dist", import.meta.url));

/** The command that builds the site, as the README writes it. */
export const DOCS_BUILD_COMMAND = "npx -y pnpm@10.34.9 docs:build";

/** Whether the site has been built into `root`. */
export const docsSiteBuilt = (root: string = DOCS_DIST): boolean => existsSync(join(root, "index.html"));

const notBuilt = (root: string) => `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Documentação do Voar</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>A documentação ainda não foi construída</h1>
<p>Na raiz do repositório, rode <code>${DOCS_BUILD_COMMAND}</code> (um ou dois minutos, sem rede) e recarregue esta página:
o site é servido de <code>${root}</code>. A referência da API do serviço, essa sempre disponível, está em <a href="/api/docs">/api/docs</a>.</p>
</body></html>`;

/**
 * Serves the documentation site under `/docs/` from `root`: hashed assets cached for good, pages never. While the
 * site is not built (checked on each request, so a build made while the demo runs is served at once), `/docs/`
 * answers a page that says how to build it.
 */
export const docsSite = (root: string): MiddlewareHandler => {
  // Made once the site exists: serveStatic warns on the console when its root is missing, and an unbuilt site is no fault.
  let files: MiddlewareHandler | undefined;
  return async (c, next) => {
    if (!docsSiteBuilt(root)) return c.html(notBuilt(root), 404);
    c.header("Cache-Control", c.req.path.startsWith("/docs/assets/") ? "public, max-age=31536000, immutable" : "no-cache");
    files ??= serveStatic({ root, rewriteRequestPath: (path) => path.replace(/^\/docs/, "") });
    return files(c, next);
  };
};
