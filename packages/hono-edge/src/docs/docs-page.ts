import type { Context } from "hono";

/**
 * The interactive API reference at `GET {base}/docs`: Swagger UI on the service's own OpenAPI document, its
 * script and stylesheet served by the service itself under `{base}/docs/assets/` (no CDN: the page works
 * offline and on a closed network). Runtime-neutral: the runtime that can read the files (the Node entry,
 * from the `swagger-ui-dist` package) hands them over as {@link DocsAssets}; a runtime without them (the
 * Worker, whose bundle must stay small) answers the page with a message pointing at the OpenAPI document.
 */

/** One asset of the docs page. */
export interface DocsAsset {
  readonly body: string | Uint8Array<ArrayBuffer>;
  readonly contentType: string;
}

/** The files of the docs page the runtime serves: Swagger UI's script and stylesheet. */
export interface DocsAssets {
  /** The asset of one of {@link DOCS_ASSET_FILES}. */
  read(file: DocsAssetFile): Promise<DocsAsset>;
}

/** The asset files the page references, as `swagger-ui-dist` names them. */
export const DOCS_ASSET_FILES = ["swagger-ui.css", "swagger-ui-bundle.js"] as const;
/** One of {@link DOCS_ASSET_FILES}. */
export type DocsAssetFile = (typeof DOCS_ASSET_FILES)[number];

/** The script that starts Swagger UI on the document; generated here, so it needs no file. */
const INIT_FILE = "docs-init.js";

const isAssetFile = (name: string): name is DocsAssetFile => (DOCS_ASSET_FILES as readonly string[]).includes(name);

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const page = (title: string, head: string, body: string) =>
  `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${head}
</head>
<body>
${body}
</body>
</html>
`;

/** The Swagger UI page: every URL it references is the service's own, relative to the host. */
export const docsHtml = (base: string): string =>
  page(
    "Voar API",
    `<link rel="stylesheet" href="${escapeHtml(`${base}/docs/assets/swagger-ui.css`)}">`,
    `<div id="docs"></div>
<script src="${escapeHtml(`${base}/docs/assets/swagger-ui-bundle.js`)}"></script>
<script src="${escapeHtml(`${base}/docs/assets/${INIT_FILE}`)}"></script>`,
  );

/** The page of a runtime that does not serve the reference's assets: what to use instead, and why. */
export const docsUnavailableHtml = (base: string): string =>
  page(
    "Voar API",
    "",
    `<main style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>Voar API</h1>
<p>Esta instância não serve a referência interativa da API: os arquivos dela ficam fora do pacote desta plataforma para mantê-lo pequeno.
A referência interativa está em <code>/api/docs</code> do serviço em Node (<code>voar-server</code>).</p>
<p>O documento OpenAPI desta instância: <a href="${escapeHtml(`${base}/openapi.json`)}">${escapeHtml(`${base}/openapi.json`)}</a>.</p>
</main>`,
  );

const initScript = (base: string): string =>
  `window.ui = SwaggerUIBundle(${JSON.stringify({
    url: `${base}/openapi.json`,
    dom_id: "#docs",
    deepLinking: true,
    // Swagger UI would ask validator.swagger.io for a badge: no request leaves for another host.
    validatorUrl: null,
  })});\n`;

const CACHE = "public, max-age=86400";

/**
 * The handlers of `GET {base}/docs` and `GET {base}/docs/assets/:file`. Without `assets` the page says
 * where the reference is served and the asset paths answer 404.
 */
export const docsHandlers = (base: string, assets: DocsAssets | undefined) => ({
  page: (c: Context) => {
    c.header("Cache-Control", "no-cache");
    return c.html(assets ? docsHtml(base) : docsUnavailableHtml(base));
  },
  asset: async (c: Context, next: () => Promise<void>) => {
    const file = c.req.param("file") ?? "";
    if (!assets) return next();
    if (file === INIT_FILE) return c.body(initScript(base), 200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" });
    if (!isAssetFile(file)) return next();
    const asset = await assets.read(file);
    return c.body(asset.body, 200, { "Content-Type": asset.contentType, "Cache-Control": CACHE });
  },
});
