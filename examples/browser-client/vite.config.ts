import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/** The page: plain TypeScript and the typed client's browser build, bundled by Vite into dist/. */
export default defineConfig({
  root: fileURLToPath(new URL("./src", import.meta.url)),
  build: { outDir: fileURLToPath(new URL("./dist", import.meta.url)), emptyOutDir: true, target: "es2022" },
  logLevel: "warn",
});
