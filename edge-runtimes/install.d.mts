/** This folder: where the edge runtimes are installed (`node_modules/.bin/wrangler`, `deno`, `bun`...). */
export declare const EDGE_DIR: string;
/** Installs the edge runtimes unless the installed ones match this folder's lockfile; throws when the install fails. */
export declare const ensureEdgeRuntimes: () => void;
