import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/** The demo page: Preact through Vite's own JSX transform (no Babel), built into dist/web. */
export default defineConfig({
  root: fileURLToPath(new URL("./src/web", import.meta.url)),
  base: "/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: fileURLToPath(new URL("./dist/web", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    sourcemap: true,
    chunkSizeWarningLimit: 1_000,
  },
  logLevel: "warn",
});
