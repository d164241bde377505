import { createRequire } from "node:module";
import path from "node:path";
import type { Readable } from "node:stream";
import { EDGE_DIR, ensureEdgeRuntimes } from "../../../../../edge-runtimes/install.mjs";

/**
 * The edge runtimes (Bun, Deno, workerd through miniflare, wrangler) live in `edge-runtimes/` at the repository's
 * root, installed on first use (`ensureEdgeRuntimes`), never by the repository's install: their types are not
 * in this package's install either, so the tests declare what they use of miniflare 3.
 */
export { EDGE_DIR, ensureEdgeRuntimes };

/** What the tests use of a miniflare 3 instance. */
export interface MiniflareInstance {
  readonly ready: Promise<URL>;
  dispose(): Promise<void>;
}

/** miniflare's options as the tests give them (its own type checks them at run time). */
export type MiniflareOptions = Readonly<Record<string, unknown>> & { readonly handleRuntimeStdio?: (stdout: Readable, stderr: Readable) => void };

/** miniflare 3, from `edge-runtimes/` (installed first when missing). */
export const loadMiniflare = (): { readonly Miniflare: new (options: MiniflareOptions) => MiniflareInstance } => {
  ensureEdgeRuntimes();
  return createRequire(path.join(EDGE_DIR, "package.json"))("miniflare") as { Miniflare: new (options: MiniflareOptions) => MiniflareInstance };
};
