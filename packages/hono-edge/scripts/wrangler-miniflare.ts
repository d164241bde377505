/**
 * Miniflare options from wrangler.toml, so tests and the bench run the Worker as deployed: its name,
 * compatibility date and flags, `[vars]`, Durable Object bindings, and which classes are SQLite-backed
 * (`new_sqlite_classes` in `[[migrations]]`). The script is the bundle (see `bundle-workerd.ts`).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "smol-toml";

const PACKAGE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The part of wrangler.toml the Worker uses. */
export interface WranglerConfig {
  readonly name: string;
  readonly main: string;
  readonly compatibility_date: string;
  readonly compatibility_flags?: readonly string[];
  readonly vars?: Readonly<Record<string, string>>;
  readonly durable_objects?: { readonly bindings?: readonly { readonly name: string; readonly class_name: string; readonly script_name?: string }[] };
  readonly migrations?: readonly { readonly tag: string; readonly new_classes?: readonly string[]; readonly new_sqlite_classes?: readonly string[] }[];
}

/** Reads and parses packages/hono-edge/wrangler.toml (or another file). */
export const readWranglerToml = async (file = path.join(PACKAGE_DIR, "wrangler.toml")): Promise<WranglerConfig> =>
  parse(await readFile(file, "utf8")) as unknown as WranglerConfig;

/** What {@link miniflareOptions} adds to the file's settings. */
export interface MiniflareExtras {
  /** The bundled Worker's text. */
  readonly script: string;
  /** Bindings over the file's `[vars]` (what `wrangler secret put` would add: API keys...). */
  readonly bindings?: Readonly<Record<string, string>>;
  /** Where Durable Object storage lives across instances; default: in memory, gone with the instance. */
  readonly durableObjectsPersist?: string;
}

/** Options for `new Miniflare(...)`: the Worker of wrangler.toml, its bindings and Durable Objects. */
export const miniflareOptions = (toml: WranglerConfig, extras: MiniflareExtras) => {
  const sqlite = new Set((toml.migrations ?? []).flatMap((m) => m.new_sqlite_classes ?? []));
  const durableObjects = Object.fromEntries(
    (toml.durable_objects?.bindings ?? []).map((b) => [b.name, { className: b.class_name, useSQLite: sqlite.has(b.class_name), ...(b.script_name ? { scriptName: b.script_name } : {}) }]),
  );
  return {
    name: toml.name,
    modules: true,
    script: extras.script,
    compatibilityDate: toml.compatibility_date,
    compatibilityFlags: [...(toml.compatibility_flags ?? [])],
    bindings: { ...toml.vars, ...extras.bindings },
    durableObjects,
    ...(extras.durableObjectsPersist === undefined ? {} : { durableObjectsPersist: extras.durableObjectsPersist }),
  };
};
