/**
 * What the deployment files say, read as Docker would read them: compose.yaml's services (YAML merge keys,
 * `${VAR:-default}` interpolation) and the Dockerfile's instructions. And the production copy of the
 * deployable app (`apps/server`, `@voar/server`: hono-edge's Node entry and the packages it loads when
 * configured), made by the same script the image's build stage runs.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { PACKAGE_DIR } from "../../runtimes/support/runtime-binaries.js";

export const REPO_DIR = path.resolve(PACKAGE_DIR, "../..");
/** The app the image is made of. */
export const SERVER_APP_DIR = path.join(REPO_DIR, "apps", "server");

/** A service of compose.yaml: its environment as given (not yet interpolated), and its command if any. */
export interface ComposeService {
  readonly name: string;
  readonly build?: unknown;
  readonly environment: Readonly<Record<string, string>>;
  readonly command?: readonly string[] | undefined;
  readonly ports: readonly string[];
  /** The profiles that start it (none: it always starts). */
  readonly profiles: readonly string[];
}

/** The services of compose.yaml, with `<<` merge keys applied. `environment` may be a map or `K=V` list. */
export const composeServices = (file = path.join(REPO_DIR, "compose.yaml")): ComposeService[] => {
  const doc = parse(readFileSync(file, "utf8"), { merge: true }) as { services: Record<string, Record<string, unknown>> };
  return Object.entries(doc.services).map(([name, s]) => {
    const env = s["environment"];
    const environment: Record<string, string> = Array.isArray(env)
      ? Object.fromEntries(env.map((e: string) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]))
      : Object.fromEntries(Object.entries((env ?? {}) as Record<string, unknown>).map(([k, v]) => [k, v === null ? "" : String(v)]));
    const command = s["command"];
    return {
      name,
      build: s["build"],
      environment,
      command: typeof command === "string" ? command.split(/\s+/) : (command as string[] | undefined),
      ports: ((s["ports"] ?? []) as unknown[]).map(String),
      profiles: ((s["profiles"] ?? []) as unknown[]).map(String),
    };
  });
};

/**
 * Compose's interpolation of one value with the shell's variables `shell`: `${VAR}`, `${VAR:-default}` (unset
 * or empty), `${VAR-default}` (unset), `$$` for a dollar sign.
 */
export const interpolate = (value: string, shell: Readonly<Record<string, string | undefined>>): string =>
  value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?-)([^}]*))?\}/g, (whole, name: string | undefined, op: string | undefined, fallback: string | undefined) => {
    if (whole === "$$") return "$";
    const v = shell[name!];
    if (op === ":-") return v === undefined || v === "" ? fallback! : v;
    if (op === "-") return v === undefined ? fallback! : v;
    if (v === undefined) throw new Error(`compose.yaml uses \${${name}} with no default and the test did not set it`);
    return v;
  });

/** One Dockerfile instruction: keyword and its text (continuation lines joined). */
export interface Instruction {
  readonly keyword: string;
  readonly args: string;
  /** The stage (`FROM` index, from 0) it belongs to. */
  readonly stage: number;
}

export const dockerfile = (file = path.join(REPO_DIR, "Dockerfile")): Instruction[] => {
  const lines = readFileSync(file, "utf8")
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
  let stage = -1;
  return lines.map((line) => {
    const [keyword, ...rest] = line.split(/\s+/);
    if (keyword!.toUpperCase() === "FROM") stage++;
    return { keyword: keyword!.toUpperCase(), args: rest.join(" ").trim(), stage };
  });
};

/** The exec-form array of an instruction (`CMD ["a", "b"]`), after any `--flag=value` options. */
export const execForm = (args: string): string[] => JSON.parse(args.slice(args.indexOf("["))) as string[];

/**
 * Builds the app's workspace dependencies, then makes the production copy with the app's `scripts/deploy.ts`,
 * as the image's build stage does. Returns the copy's directory (the image's `/app`).
 */
export const buildAndDeploy = (): string => {
  execFileSync("pnpm", ["--filter", "@voar/server...", "build"], { cwd: REPO_DIR, stdio: "pipe" });
  const target = path.join(mkdtempSync(path.join(tmpdir(), "voar-deploy-")), "app");
  execFileSync(path.join(SERVER_APP_DIR, "node_modules/.bin/tsx"), ["scripts/deploy.ts", target], { cwd: SERVER_APP_DIR, stdio: "pipe" });
  return target;
};

/** Where Node resolves `specifier` from the directory `from` (a `file:` URL), as an import there would. */
export const resolveFrom = (from: string, specifier: string): string =>
  execFileSync(process.execPath, ["--input-type=module", "-e", `process.stdout.write(import.meta.resolve(${JSON.stringify(specifier)}))`], { cwd: from, encoding: "utf8" });
