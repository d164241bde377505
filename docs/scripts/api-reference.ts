/**
 * The API reference: TypeDoc (with typedoc-plugin-markdown and typedoc-vitepress-theme) over every public entry
 * of the published packages, as their `exports` name them, with the doc comments the code has. Written to
 * docs/api/ (not committed) with its sidebar, `docs/api/typedoc-sidebar.json`.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Application, Converter, ReflectionKind, type Context } from "typedoc";
import { DOCS_DIR, REPO_DIR } from "./paths.js";

/** The published packages, by folder under packages/. */
export const PUBLISHED = ["core", "http-adapter", "hono-edge", "testing"] as const;

/** Every public entry: the specifier a user imports, and the source file behind it. */
export const publicEntries = async (): Promise<readonly { readonly specifier: string; readonly file: string }[]> => {
  const entries: { specifier: string; file: string }[] = [];
  for (const dir of PUBLISHED) {
    const manifest = JSON.parse(await readFile(path.join(REPO_DIR, "packages", dir, "package.json"), "utf8")) as { name: string; exports: Record<string, string> };
    for (const [key, target] of Object.entries(manifest.exports)) {
      entries.push({ specifier: key === "." ? manifest.name : `${manifest.name}/${key.slice(2)}`, file: path.join(REPO_DIR, "packages", dir, target) });
    }
  }
  return entries;
};

/** Runs TypeDoc; fails (throws) when it reports an error. */
export const generateApiReference = async (): Promise<void> => {
  const entries = await publicEntries();
  // TypeDoc names a module after its path below the entries' common folder: name it after its import specifier instead.
  // (TypeDoc leaves out a trailing `/index`.)
  const nameOf = new Map(entries.map((e) => [path.relative(path.join(REPO_DIR, "packages"), e.file).replace(/(\/index)?\.ts$/, ""), e.specifier]));
  const app = await Application.bootstrapWithPlugins({
    entryPoints: entries.map((e) => e.file),
    entryPointStrategy: "resolve",
    tsconfig: path.join(DOCS_DIR, "tsconfig.typedoc.json"),
    plugin: ["typedoc-plugin-markdown", "typedoc-vitepress-theme"],
    out: path.join(DOCS_DIR, "api"),
    docsRoot: DOCS_DIR,
    readme: "none",
    name: "API reference",
    excludePrivate: true,
    excludeInternal: true,
    // The packages' own typecheck runs in CI; here only their declarations and comments are read.
    skipErrorChecking: true,
    hideGenerator: true,
    logLevel: "Warn",
    sidebar: { autoConfiguration: true, format: "vitepress", pretty: true, collapsed: true },
  } as Parameters<typeof Application.bootstrapWithPlugins>[0]);
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context: Context) => {
    for (const module of context.project.getChildrenByKind(ReflectionKind.Module)) {
      const name = nameOf.get(module.name);
      if (!name) throw new Error(`TypeDoc module ${module.name} is not one of the packages' exports`);
      module.name = name;
    }
  });
  const project = await app.convert();
  if (!project || app.logger.hasErrors()) throw new Error("TypeDoc failed to read the packages' public entries");
  await app.generateOutputs(project);
  if (app.logger.hasErrors()) throw new Error("TypeDoc failed to write the API reference");
};
