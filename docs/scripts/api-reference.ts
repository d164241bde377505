/**
 * The API reference: TypeDoc (with typedoc-plugin-markdown and typedoc-vitepress-theme) over every public entry
 * of the published packages, as their `exports` name them, with the doc comments the code has. Written to
 * docs/api/ (not committed) with its sidebar, `docs/api/typedoc-sidebar.json`.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Application, Comment, Converter, DeclarationReflection, ReflectionKind, type Context } from "typedoc";
import { DOCS_DIR, REPO_DIR } from "./paths.js";

/** The published packages, by folder under packages/. */
export const PUBLISHED = ["core", "http-adapter", "hono-edge", "testing"] as const;

/** Every public entry: the specifier a user imports, the source file behind it, and its package's version. */
export const publicEntries = async (): Promise<readonly { readonly specifier: string; readonly file: string; readonly version: string }[]> => {
  const entries: { specifier: string; file: string; version: string }[] = [];
  for (const dir of PUBLISHED) {
    const manifest = JSON.parse(await readFile(path.join(REPO_DIR, "packages", dir, "package.json"), "utf8")) as { name: string; version: string; exports: Record<string, string> };
    for (const [key, target] of Object.entries(manifest.exports)) {
      entries.push({ specifier: key === "." ? manifest.name : `${manifest.name}/${key.slice(2)}`, file: path.join(REPO_DIR, "packages", dir, target), version: manifest.version });
    }
  }
  return entries;
};

/** The repository's web address (root package.json's `repository`), where the source links point. */
export const repositoryUrl = async (): Promise<string> => {
  const manifest = JSON.parse(await readFile(path.join(REPO_DIR, "package.json"), "utf8")) as { repository?: { url?: string } };
  const url = manifest.repository?.url?.replace(/^git\+/, "").replace(/\.git$/, "");
  if (!url) throw new Error("package.json: no repository.url to link the API reference's sources to");
  return url;
};

/** Runs TypeDoc; fails (throws) when it reports an error. */
export const generateApiReference = async (): Promise<void> => {
  const entries = await publicEntries();
  // TypeDoc names a module after its path below basePath (the repository): name it after its import specifier instead.
  // (TypeDoc leaves out a trailing `/index`.)
  const nameOf = new Map(entries.map((e) => [path.relative(REPO_DIR, e.file).replace(/(\/index)?\.ts$/, ""), e] as const));
  const repository = await repositoryUrl();
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
    // One page per entry, its members as sections: a page per member made 500 pages, each carrying the whole
    // sidebar (the built site weighed 151 MB, 144 MB of it the API reference).
    outputFileStrategy: "modules",
    // Its links name anchors its own way (`#default_seed`, `#airlinekind-1` for a second member of one name): written
    // into the page, so that they exist whatever VitePress makes of the headings.
    useHTMLAnchors: true,
    sidebar: { autoConfiguration: true, format: "vitepress", pretty: true, collapsed: true },
    // "Defined in" links to the line in the repository (no git needed: the template names the branch).
    disableGit: true,
    basePath: REPO_DIR,
    sourceLinkTemplate: `${repository}/blob/main/{path}#L{line}`,
  } as Parameters<typeof Application.bootstrapWithPlugins>[0]);
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context: Context) => {
    for (const module of context.project.getChildrenByKind(ReflectionKind.Module)) {
      const entry = nameOf.get(module.name);
      if (!entry) throw new Error(`TypeDoc module ${module.name} is not one of the packages' exports`);
      module.name = entry.specifier;
      // Each entry's page says which version it documents and where its source is.
      const source = `${repository}/blob/main/${path.relative(REPO_DIR, entry.file)}`;
      const said: Comment["summary"] = [{ kind: "text", text: `Version ${entry.version} · \`import … from "${entry.specifier}"\` · [source](${source})\n\n` }];
      module.comment = new Comment([...said, ...(module.comment?.summary ?? [])], module.comment?.blockTags ?? []);
    }
    // Members inherited from outside the packages (Error's, Effect's TaggedError's pipe overloads): pages of noise.
    for (const reflection of Object.values(context.project.reflections)) {
      if (reflection instanceof DeclarationReflection && reflection.inheritedFrom && !reflection.sources?.some((s) => s.fullFileName.includes(`${path.sep}packages${path.sep}`))) {
        context.project.removeReflection(reflection);
      }
    }
  });
  // Each "Defined in" links to its file and line in the repository (TypeDoc's template path is relative to the
  // entries' common folder, not the repository's root).
  app.converter.on(Converter.EVENT_RESOLVE_END, (context: Context) => {
    for (const reflection of Object.values(context.project.reflections)) {
      for (const source of (reflection as { sources?: { fullFileName: string; line: number; url?: string }[] }).sources ?? []) {
        source.url = `${repository}/blob/main/${path.relative(REPO_DIR, source.fullFileName)}#L${source.line}`;
      }
    }
  });
  const project = await app.convert();
  if (!project || app.logger.hasErrors()) throw new Error("TypeDoc failed to read the packages' public entries");
  await app.generateOutputs(project);
  if (app.logger.hasErrors()) throw new Error("TypeDoc failed to write the API reference");
};
