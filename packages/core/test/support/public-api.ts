/**
 * What a package entry exports, read by the TypeScript compiler from its source: every name, with the kind of
 * what it names (`class`, `function`, `const`, `interface`, `type`...), prefixed `type-only ` when the entry
 * re-exports a value as a type only (it is then absent at run time). Pins the public surface of `@voar/core` whatever file each name lives in.
 */
import ts from "typescript";

const fs = (await import("node:fs" as string)) as {
  readdirSync(path: string, options: { recursive: true }): string[];
};

/** Every `.ts` file under a folder, as absolute paths. */
const tsFilesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `${dir}/${f}`);

const kindOf = (flags: ts.SymbolFlags): string => {
  const kinds: string[] = [];
  if (flags & ts.SymbolFlags.Class) kinds.push("class");
  else if (flags & ts.SymbolFlags.Function) kinds.push("function");
  else if (flags & ts.SymbolFlags.Variable) kinds.push("const");
  else if (flags & ts.SymbolFlags.Enum) kinds.push("enum");
  else if (flags & ts.SymbolFlags.ValueModule) kinds.push("namespace");
  if (flags & ts.SymbolFlags.Interface) kinds.push("interface");
  if (flags & ts.SymbolFlags.TypeAlias) kinds.push("type");
  return kinds.join(" & ") || `flags ${flags}`;
};

const isTypeOnlyExport = (symbol: ts.Symbol): boolean =>
  (symbol.declarations ?? []).some((d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly));

/** The value kinds: names a module has at run time. */
export const VALUE_KINDS = new Set(["class", "function", "const", "enum", "namespace"]);

/**
 * The exports of each entry file (absolute paths, all under `srcDir`), name → kind, names sorted. Only the
 * package's own sources are read (external modules are not loaded: no export of ours is a bare re-export of one).
 */
export const exportsOf = (srcDir: string, entries: readonly string[]): Record<string, Record<string, string>> => {
  const program = ts.createProgram({
    rootNames: tsFilesUnder(srcDir),
    options: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, noResolve: true, noEmit: true, types: [] },
  });
  const checker = program.getTypeChecker();
  const out: Record<string, Record<string, string>> = {};
  for (const entry of entries) {
    const file = program.getSourceFile(entry);
    if (!file) throw new Error(`${entry} is not a source file under ${srcDir}`);
    const moduleSymbol = checker.getSymbolAtLocation(file);
    if (!moduleSymbol) throw new Error(`${entry} is not a module`);
    const names: Record<string, string> = {};
    const symbols = [...checker.getExportsOfModule(moduleSymbol)].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const symbol of symbols) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const kind = kindOf(target.flags);
      names[symbol.name] = isTypeOnlyExport(symbol) && VALUE_KINDS.has(kind) ? `type-only ${kind}` : kind;
    }
    out[entry] = names;
  }
  return out;
};
