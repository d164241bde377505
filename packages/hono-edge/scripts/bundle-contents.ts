/**
 * What a bundle is made of: each byte of the minified output attributed to the source it came from (through
 * the bundle's source map), grouped by package (and by top folder inside this workspace's packages), with
 * each group's raw bytes and its share of the gzip size. `pnpm --filter @voar/hono-edge bundle:workerd
 * --contents` prints the table for the workerd bundle.
 */
import path from "node:path";
import { gzipSync } from "node:zlib";

/** One group of sources in the bundle. */
export interface BundlePart {
  /** A package (`zod`, `effect`...) or a workspace folder (`core/src/envelope`, `core/src/airports`...). */
  readonly name: string;
  /** Bytes of the minified output from this group's sources. */
  readonly rawBytes: number;
  /** This group's share of the bundle's gzip size (its text gzipped alone, scaled so the shares add up). */
  readonly gzipBytes: number;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** The values of one source-map segment (base64 VLQ). */
const decodeSegment = (segment: string): number[] => {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const c of segment) {
    const digit = DIGIT.get(c) ?? 0;
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
};

/** The group of a source's absolute path: a package name, or `<workspace package>/src/<folder>`. */
export const groupOf = (source: string): string => {
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(source);
  if (dependency?.[1]) return dependency[1];
  const workspace = /\/(?:packages|apps)\/([^/]+)\/src\/([^/]+)/.exec(source);
  if (workspace) return `${workspace[1]}/src/${workspace[2]!.replace(/\.ts$/, "")}`;
  return source;
};

/**
 * Splits a minified bundle by where each byte came from, using its source map (esbuild's, `sourcemap:
 * "external"`; its sources are relative to `mapDir`), and sizes each group raw and gzip. Bytes no mapping covers (esbuild's own glue) form `(glue)`.
 */
export const bundleContents = (code: string, sourceMap: string, mapDir: string): readonly BundlePart[] => {
  const map = JSON.parse(sourceMap) as { sources: string[]; mappings: string };
  const groups = map.sources.map((s) => groupOf(path.resolve(mapDir, s)));
  const lines = code.split("\n");
  const texts = new Map<string, string[]>();
  const add = (group: string, text: string) => {
    if (text === "") return;
    const list = texts.get(group);
    if (list) list.push(text);
    else texts.set(group, [text]);
  };
  let source = 0;
  map.mappings.split(";").forEach((lineMappings, lineIndex) => {
    const line = lines[lineIndex] ?? "";
    let column = 0;
    let from = 0;
    let group = "(glue)";
    for (const segment of lineMappings.split(",")) {
      if (segment === "") continue;
      const values = decodeSegment(segment);
      column += values[0] ?? 0;
      add(group, line.slice(from, column));
      from = column;
      if (values.length >= 4) {
        source += values[1] ?? 0;
        group = groups[source] ?? "(glue)";
      } else group = "(glue)";
    }
    add(group, `${line.slice(from)}\n`);
  });
  const totalGzip = gzipSync(code, { level: 9 }).length;
  const parts = [...texts].map(([name, list]) => {
    const text = list.join("");
    return { name, rawBytes: Buffer.byteLength(text), alone: gzipSync(text, { level: 9 }).length };
  });
  const aloneSum = parts.reduce((n, p) => n + p.alone, 0);
  return parts
    .map((p) => ({ name: p.name, rawBytes: p.rawBytes, gzipBytes: Math.round((p.alone * totalGzip) / aloneSum) }))
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
};

/** The parts as a Markdown table, the largest `top` of them, the rest summed in one row. */
export const contentsTable = (parts: readonly BundlePart[], top = 15): string => {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const gzipTotal = parts.reduce((n, p) => n + p.gzipBytes, 0);
  const shown = parts.slice(0, top);
  const rest = parts.slice(top);
  const rows = [...shown, ...(rest.length > 0 ? [{ name: `${rest.length} more`, rawBytes: rest.reduce((n, p) => n + p.rawBytes, 0), gzipBytes: rest.reduce((n, p) => n + p.gzipBytes, 0) }] : [])];
  return [
    "| part | raw | gzip share | |",
    "|---|---|---|---|",
    ...rows.map((p) => `| ${p.name} | ${kb(p.rawBytes)} | ${kb(p.gzipBytes)} | ${((100 * p.gzipBytes) / gzipTotal).toFixed(0)}% |`),
  ].join("\n");
};
