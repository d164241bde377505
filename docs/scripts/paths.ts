import { fileURLToPath } from "node:url";

/** The VitePress root (docs/). */
export const DOCS_DIR = fileURLToPath(new URL("..", import.meta.url));
/** The repository's root. */
export const REPO_DIR = fileURLToPath(new URL("../..", import.meta.url));
/** Where the generated pages go (not committed). */
export const GENERATED_DIR = fileURLToPath(new URL("../reference/generated", import.meta.url));
