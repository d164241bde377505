/**
 * The configuration reference page, from the code: every setting of `ServiceConfigSchema` (its file key, its
 * `VOAR_*` variable from `ENV_VARS`, the default the schema fills in, the bounds it checks, its doc comment in
 * the schema's source), then the variables the runtime entries read besides (`ENTRY_VARS`, `VOAR_CONFIG_FILE` among them).
 * Fails when a `VOAR_*` name in the service's sources is documented nowhere on the page.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { configFromEnv, ENV_VARS, ServiceConfigSchema } from "@voar/hono-edge";
import * as z from "zod";
import { constObjectDocs, schemaObjectDocs, type ObjectLiteralDocs } from "./doc-comments.js";
import { REPO_DIR } from "./paths.js";

const HONO_EDGE = path.join(REPO_DIR, "packages/hono-edge/src");
const SCHEMA_FILES = ["config/config-schema.ts", "config/edge-schema.ts", "config/deploy-schema.ts", "config/redis-store-schema.ts", "config/upstream-protection-schema.ts", "config/admission-schema.ts", "config/calendar-schema.ts"].map((f) => path.join(HONO_EDGE, f));
const ENTRY_FILE = path.join(HONO_EDGE, "config/entry-vars.ts");

interface Def {
  readonly type: string;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly shape?: Record<string, z.ZodType>;
  readonly element?: z.ZodType;
}
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under wrappers (default, prefault, optional, nullable, transform pipes). */
const unwrap = (s: z.ZodType): z.ZodType => {
  for (;;) {
    const d = defOf(s);
    if (d.innerType && ["default", "prefault", "optional", "nullable", "readonly", "catch"].includes(d.type)) s = d.innerType;
    else if (d.type === "pipe" && d.in) s = d.in;
    else return s;
  }
};

interface Leaf {
  readonly path: string;
  readonly schema: z.ZodType;
  readonly doc: string;
}

/** What the source's object literals with exactly these keys say of `key`: one text, or the texts they disagree on. */
const docsFor = (docs: readonly ObjectLiteralDocs[], keys: string, key: string): { readonly sure: string; readonly some: readonly string[] } => {
  const said = new Set(docs.filter((o) => o.keys === keys).map((m) => m.docs.get(key) ?? ""));
  return said.size === 1 ? { sure: [...said][0]!, some: [] } : { sure: "", some: [...said].filter((t) => t !== "") };
};

const keysOf = (s: z.ZodType): string | undefined => {
  const d = defOf(unwrap(s));
  return d.type === "object" && d.shape ? Object.keys(d.shape).sort().join(",") : undefined;
};

/** A list of objects: its items' fields and what the source says of each. */
const itemFields = (s: z.ZodType, docs: readonly ObjectLiteralDocs[]): { readonly fields: string; readonly doc: string } | undefined => {
  const d = defOf(unwrap(s));
  const element = d.type === "array" && d.element ? d.element : undefined;
  const keys = element && keysOf(element);
  if (!element || !keys) return undefined;
  const names = keys.split(",");
  const fieldsInOrder = Object.keys(defOf(unwrap(element)).shape ?? {});
  return {
    fields: `list of \`{ ${fieldsInOrder.join(", ")} }\``,
    doc: fieldsInOrder
      .filter((k) => names.includes(k))
      .map((k) => [k, docsFor(docs, keys, k).sure] as const)
      .filter(([, t]) => t !== "")
      .map(([k, t]) => `\`${k}\`: ${t}`)
      .join(" "),
  };
};

/**
 * Every setting: a path to a value that is not an object of settings (lists and records are one setting). A
 * setting's text is its own doc comment; an object's comment goes to its settings when none of them has its own.
 */
const leaves = (schema: z.ZodType, docs: readonly ObjectLiteralDocs[], prefix = "", inherited = ""): Leaf[] => {
  const keys = keysOf(schema);
  if (!keys) return [{ path: prefix, schema, doc: inherited }];
  const shape = defOf(unwrap(schema)).shape!;
  const own = Object.fromEntries(Object.keys(shape).map((k) => [k, docsFor(docs, keys, k)]));
  const anySure = Object.values(own).some((d) => d.sure !== "");
  return Object.entries(shape).flatMap(([key, child]) => {
    const described = z.globalRegistry.get(child)?.description ?? "";
    const fromParent = anySure ? "" : inherited;
    const doc = own[key]!.sure || described || fromParent || (own[key]!.some.length === 1 ? own[key]!.some[0]! : "");
    return leaves(child, docs, prefix ? `${prefix}.${key}` : key, doc);
  });
};

const at = (value: unknown, dotted: string): unknown => dotted.split(".").reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined), value);

/** Bounds and allowed values of a setting, from its JSON Schema. */
const boundsOf = (schema: z.ZodType): string => {
  try {
    return describeJson(z.toJSONSchema(unwrap(schema), { io: "input", unrepresentable: "any" }) as Record<string, unknown>);
  } catch {
    return "";
  }
};

const describeJson = (json: Record<string, unknown>): string => {
  if (Array.isArray(json["anyOf"])) return (json["anyOf"] as Record<string, unknown>[]).map(describeJson).join(" or ");
  if (json["const"] !== undefined) return `\`${JSON.stringify(json["const"])}\``;
  const parts: string[] = [];
  const type = json["type"];
  if (json["enum"]) parts.push((json["enum"] as unknown[]).map((v) => `\`${JSON.stringify(v)}\``).join(" or "));
  else if (type === "integer") parts.push("integer");
  else if (type === "number") parts.push("number");
  else if (type === "boolean") parts.push("true/false");
  else if (type === "array") parts.push("list");
  else if (type === "object") parts.push(json["propertyNames"] ? "object by Companhia id" : "object");
  else if (type === "string") parts.push(json["format"] === "uri" ? "URL" : "text");
  if (json["minimum"] !== undefined) parts.push(`≥ ${String(json["minimum"])}`);
  if (json["exclusiveMinimum"] !== undefined) parts.push(`> ${String(json["exclusiveMinimum"])}`);
  if (json["maximum"] !== undefined) parts.push(`≤ ${String(json["maximum"])}`);
  if (json["minLength"] !== undefined) parts.push(`${String(json["minLength"])}+ characters`);
  if (type === "object" && (json["additionalProperties"] as Record<string, unknown> | undefined)?.["type"] === "boolean") parts.push("values true/false");
  return parts.join(", ");
};

/** How a variable's text is read, told by the parser itself: what it says of a value it cannot read. */
const formatOf = (name: string): string => {
  const parsed = ENV_VARS[name]!.parse("@@@");
  if (!("error" in parsed)) return "text";
  const m = /each item must be (.+?)(?: \(an item has no ':'\)|, got)/.exec(parsed.error);
  if (m) return `comma-separated list, each ${m[1]}`;
  if (/is not a number/.test(parsed.error)) return "number";
  if (/is not true or false/.test(parsed.error)) return "true/false (also on/off, 1/0, yes/no)";
  return parsed.error;
};

/** The settings each variable writes: the leaf paths its (sample) value lands on. */
const variablesByPath = (settings: readonly string[]): Map<string, string[]> => {
  const samples = ["1", "a:b", "1=on", "redis://127.0.0.1:6379", "https://example.test/api", "true", "x"];
  const byPath = new Map<string, string[]>();
  for (const name of Object.keys(ENV_VARS)) {
    for (const sample of samples) {
      const env = configFromEnv({ [name]: sample });
      if (env.errors.length > 0) continue;
      const hit = settings.filter((p) => at(env.value, p) !== undefined);
      for (const p of hit) byPath.set(p, [...(byPath.get(p) ?? []), name]);
      if (hit.length > 0) break;
    }
  }
  return byPath;
};

/** Table cell text: pipes escaped, and angle brackets outside code spans (Vue would read them as tags). */
const cell = (text: string) =>
  text
    .replace(/\n/g, " ")
    .split("`")
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, "&lt;").replace(/>/g, "&gt;")))
    .join("`")
    .replace(/\|/g, "\\|");
const perSecond = (p: string, v: unknown) => (p.endsWith("refillPerSecond") && typeof v === "number" && v < 1 ? `\`${Number(v.toFixed(6))}\` (one every ${Math.round(1 / v)} s)` : undefined);
const show = (v: unknown): string =>
  v === undefined ? "none" : Array.isArray(v) && v.length === 0 ? "none (`[]`)" : typeof v === "object" && v !== null && Object.keys(v).length === 0 ? "none (`{}`)" : `\`${JSON.stringify(v)}\``;

const voarNamesIn = async (dir: string): Promise<Set<string>> => {
  const names = new Set<string>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    // The code's names only: a comment may show a misspelled one (what the unknown-variable warning names).
    const code = (await readFile(path.join(entry.parentPath, entry.name), "utf8")).replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    for (const m of code.matchAll(/\bVOAR_[A-Z0-9_]*[A-Z0-9]\b/g)) names.add(m[0]);
  }
  return names;
};

export const configReferencePage = async (): Promise<string> => {
  const docs = await schemaObjectDocs(SCHEMA_FILES);
  const settings = leaves(ServiceConfigSchema, docs);
  const paths = settings.map((s) => s.path);
  const variables = variablesByPath(paths);
  // Defaults: what the schema fills in around the least a configuration must say (one API key; an upstream and a Redis store for their sections).
  const given = new Set(["apiKeys", "upstream.url", "upstream.token", "store.redis.url"]);
  const base = ServiceConfigSchema.parse({ apiKeys: [{ name: "docs", key: "a-key-of-16-characters" }] });
  const full = ServiceConfigSchema.parse({
    apiKeys: [{ name: "docs", key: "a-key-of-16-characters" }],
    upstream: { url: "https://upstream.example/api", token: "t", cache: {} },
    store: { redis: { url: "redis://127.0.0.1:6379" } },
  });
  const defaultOf = (p: string) => (given.has(p) ? "none" : perSecond(p, at(base, p)) ?? show(at(base, p) ?? at(full, p)));

  const entryDocs = await constObjectDocs(ENTRY_FILE, "ENTRY_VARS");
  const entryText = await readFile(ENTRY_FILE, "utf8");
  const entryVars = [...entryDocs].map(([key, doc]) => ({ name: new RegExp(`${key}: "(VOAR_[A-Z_]+)"`).exec(entryText)![1]!, doc }));

  const documented = new Set([...Object.keys(ENV_VARS), ...entryVars.map((v) => v.name)]);
  const missing = [...(await voarNamesIn(HONO_EDGE))].filter((n) => !documented.has(n));
  if (missing.length > 0) throw new Error(`configuration reference: ${missing.join(", ")} appear in packages/hono-edge/src but in neither ENV_VARS nor ENTRY_VARS`);
  const unmapped = Object.keys(ENV_VARS).filter((n) => ![...variables.values()].some((names) => names.includes(n)));
  if (unmapped.length > 0) throw new Error(`configuration reference: could not tell which setting ${unmapped.join(", ")} writes`);

  const lines = [
    "---",
    "title: Configuration reference",
    "aside: false",
    "---",
    "",
    "# Configuration reference",
    "",
    "::: info Generated",
    "This page is generated at build time from `ServiceConfigSchema` (`packages/hono-edge/src/config/*.ts`: keys,",
    "defaults, bounds and the doc comment of each setting) and `ENV_VARS` (`config/env-config.ts`: the variable",
    "of each setting and how its text is read). The build fails when a `VOAR_*` variable of the service is missing here.",
    ":::",
    "",
    "The service reads its configuration from a JSON file (`VOAR_CONFIG_FILE`, file keys below) and from `VOAR_*`",
    "environment variables; a variable wins over the file. In code, `loadConfig({ file, env })` does the same and",
    "`defineConfig(input)` validates an object. Every problem is reported at start, one line each, naming the",
    "setting and the variable it came from. `apiKeys` or `agencies` must name at least one credential.",
    "",
    "## Settings",
    "",
    "| file key | variable | default | values | what it is |",
    "|---|---|---|---|---|",
    ...settings.map((s) => {
      const vars = (variables.get(s.path) ?? []).map((n) => `\`${n}\``).join("<br>");
      const items = itemFields(s.schema, docs);
      return `| \`${s.path}\` | ${vars || "—"} | ${defaultOf(s.path)} | ${cell(items?.fields ?? boundsOf(s.schema))} | ${cell(s.doc || items?.doc || "")} |`;
    }),
    "",
    "## How each variable is read",
    "",
    "Blank values count as unset. Lists are comma-separated. `VOAR_LEGACY_API_KEYS` and `VOAR_LEGACY_AGENCIES` add",
    "their entries, with `compat: \"legacy\"`, to those of `VOAR_API_KEYS` and `VOAR_AGENCIES`; set from the",
    "environment, the lists replace the file's.",
    "",
    "| variable | setting | format |",
    "|---|---|---|",
    ...Object.keys(ENV_VARS).map((name) => {
      const settingsOf = [...variables].filter(([, names]) => names.includes(name)).map(([p]) => `\`${p}\``);
      return `| \`${name}\` | ${settingsOf.join(", ")} | ${cell(formatOf(name).replace(/<[^>]+>/g, (t) => `\`${t}\``))} |`;
    }),
    "",
    "## Variables of the runtime entries",
    "",
    "Read by the entries (`voar-server` on Node, the Worker, Deno, Bun) besides the settings above. `voar-server`",
    "logs a warning for any other `VOAR_*` variable it is given (`config.unknown_variable`, naming the closest of",
    "these names), or stops with `VOAR_STRICT_ENV=true`.",
    "",
    "| variable | what it is |",
    "|---|---|",
    ...entryVars.map((v) => `| \`${v.name}\` | ${cell(v.doc)} |`),
    "| `PORT` | Port of the Node entry when `VOAR_PORT` is not set. |",
    "",
  ];
  return lines.join("\n");
};
