import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { DocsAsset, DocsAssetFile, DocsAssets } from "./docs-page.js";

const CONTENT_TYPES: Readonly<Record<DocsAssetFile, string>> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

/**
 * The docs page's assets on Node: Swagger UI's files from the installed `swagger-ui-dist` package, read
 * once each and kept in memory. Pass it as `docsAssets` to `createApp` (the `voar-server` entry does).
 *
 * @example
 * const app = createApp({ config, sources, docsAssets: nodeDocsAssets() });
 */
export const nodeDocsAssets = (): DocsAssets => {
  // Resolved on the first request for a file, so that the service starts whatever happens to the package.
  let folder: string | undefined;
  const folderOf = () => (folder ??= path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json")));
  const cache = new Map<DocsAssetFile, Promise<DocsAsset>>();
  return {
    read: (file) => {
      let asset = cache.get(file);
      if (!asset) {
        asset = Promise.resolve()
          .then(() => readFile(path.join(folderOf(), file)))
          .then((bytes) => ({ body: new Uint8Array(bytes), contentType: CONTENT_TYPES[file] }));
        // A failed read is not kept: the next request tries again.
        asset.catch(() => cache.delete(file));
        cache.set(file, asset);
      }
      return asset;
    },
  };
};
