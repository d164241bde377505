/**
 * `pnpm release`: builds the published packages, then `changeset publish` (which publishes with pnpm, so each
 * package's publishConfig applies, at the versions `pnpm changeset version` wrote). Run it after the release's
 * version commit; it publishes only versions not yet on the registry.
 *
 * `pnpm release --dry-run`: builds, shows the release the pending changesets make, packs each published package
 * with `pnpm pack`, and checks each tarball with publint (warnings are errors) and arethetypeswrong (ESM-only
 * profile); checks that `npm pack` refuses each package, with and without scripts, instead of packing it;
 * publishes nothing. Prints a short summary (packages, versions, checks passed); every command's own output goes
 * to `artifacts/release-dry-run.log` (its path is printed; the tail of a failing command's output is printed too).
 * Exits non-zero on any problem.
 *
 * `pnpm release --pack [folder]`: builds and packs the published packages into a folder (default `artifacts/packages`;
 * the `voar-*.tgz` already there are replaced), the tarballs `npm install ./voar-core-<version>.tgz` takes before the packages are on the registry.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import getReleasePlan from "@changesets/get-release-plan";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = path.join(ROOT, "node_modules/.bin");
const dryRun = process.argv.includes("--dry-run");
const packOnly = process.argv.includes("--pack");
const mode = dryRun ? "release --dry-run" : packOnly ? "release --pack" : "release";
const LOG = path.join(ROOT, "artifacts", "release-dry-run.log");
/** The arethetypeswrong CLI the dry run checks the tarballs with. */
const ATTW_VERSION = "0.18.5";

/** Runs a command; in --dry-run and --pack its output goes to the log file. Exits this process when it fails. */
const run = (command: string, args: readonly string[], cwd = ROOT, options: { readonly env?: NodeJS.ProcessEnv } = {}): string => {
  const line = `$ ${[command, ...args].join(" ")}${cwd === ROOT ? "" : `   (in ${path.relative(ROOT, cwd)})`}`;
  if (!dryRun && !packOnly) {
    console.log(`\n${line}`);
    const result = spawnSync(command, args, { cwd, stdio: "inherit", env: options.env ?? process.env });
    if (result.status !== 0) fail(`${command} ${args.join(" ")} failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`})`);
    return "";
  }
  const result = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, env: { ...(options.env ?? process.env), FORCE_COLOR: "0", NO_COLOR: "1" } });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  appendFileSync(LOG, `\n${line}\n${output}`);
  if (result.status !== 0) fail(`${command} ${args.join(" ")} failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`}); its output ends:\n${output.trim().split("\n").slice(-30).join("\n")}`);
  return output;
};

function fail(message: string): never {
  console.error(`${mode}: ${message}${dryRun || packOnly ? `\n(every command's output: ${path.relative(ROOT, LOG)})` : ""}`);
  process.exit(1);
}

/** The published packages: every workspace package under packages/ that is not private. */
const publishedPackages = async (): Promise<readonly { readonly name: string; readonly dir: string; readonly version: string }[]> => {
  const found: { name: string; dir: string; version: string }[] = [];
  for (const entry of await readdir(path.join(ROOT, "packages"), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = path.join(ROOT, "packages", entry.name);
    const manifest = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8").catch(() => "{}")) as { name?: string; private?: boolean; version?: string };
    if (manifest.name && manifest.private !== true) found.push({ name: manifest.name, dir, version: manifest.version ?? "" });
  }
  return found;
};

/** Packs one package with pnpm into `out`; the tarball's path. */
const pack = async (pkg: { readonly name: string; readonly dir: string }, out: string): Promise<string> => {
  const before = new Set(await readdir(out).catch(() => []));
  run("pnpm", ["pack", "--pack-destination", out], pkg.dir);
  const [tarball] = (await readdir(out)).filter((f) => f.endsWith(".tgz") && !before.has(f));
  return tarball ? path.join(out, tarball) : fail(`pnpm pack made no tarball for ${pkg.name}`);
};

const packages = await publishedPackages();
if (dryRun || packOnly) {
  mkdirSync(path.dirname(LOG), { recursive: true });
  writeFileSync(LOG, `${mode}, ${new Date().toISOString()}\n`);
}
console.log(`${mode}: ${packages.map((p) => p.name).join(", ")}`);
run("pnpm", ["--filter", "./packages/*", "run", "build"]);

if (packOnly) {
  const at = process.argv.indexOf("--pack");
  const given = process.argv[at + 1];
  const out = path.resolve(given && !given.startsWith("--") ? given : path.join(ROOT, "artifacts", "packages"));
  mkdirSync(out, { recursive: true });
  // One version of each in the folder, so that `npm install <folder>/voar-core-*.tgz` names one file.
  for (const old of (await readdir(out)).filter((f) => /^voar-.*\.tgz$/.test(f))) await rm(path.join(out, old));
  for (const pkg of packages) console.log(`  ${pkg.name}@${pkg.version}: ${path.relative(process.cwd(), await pack(pkg, out)) || "."}`);
  console.log(`\nInstall them with npm, every tarball in one command (they depend on each other): npm install ${path.relative(process.cwd(), out) || "."}/voar-*.tgz`);
  process.exit(0);
}

if (!dryRun) {
  run(path.join(BIN, "changeset"), ["publish"]);
  process.exit(0);
}

const work = await mkdtemp(path.join(tmpdir(), "voar-release-"));
try {
  // What the pending changesets would release (the versions `pnpm changeset version` would write), read from
  // .changeset/ with the configuration's fixed group and ignores: no git needed.
  const { releases, changesets } = await getReleasePlan(ROOT);
  const planned = releases.filter((r) => r.type !== "none");
  console.log(planned.length === 0 ? "no pending changeset: nothing to release" : `${changesets.length} pending changesets would release:`);
  for (const r of planned) console.log(`  ${r.name}: ${r.oldVersion} → ${r.newVersion} (${r.type})`);
  const stray = planned.filter((r) => !packages.some((p) => p.name === r.name));
  if (stray.length > 0) fail(`the changesets would version packages that are not published: ${stray.map((r) => r.name).join(", ")}`);
  const majors = planned.filter((r) => r.type === "major" && r.oldVersion.startsWith("0."));
  if (majors.length > 0) fail(`the changesets would take ${majors.map((r) => r.name).join(", ")} to 1.0.0; a 0.x release is a minor or a patch`);

  for (const pkg of packages) {
    const tarball = await pack(pkg, path.join(work, path.basename(pkg.dir)));
    run(path.join(BIN, "publint"), ["run", tarball, "--strict"]);
    // ESM only, on purpose: neither `require` nor node10's resolution (no `main`) is offered.
    // arethetypeswrong through npx at a pinned version: it brings its own TypeScript (22 MB), which the repository's
    // install (the demo's) need not carry for a check that only the release runs.
    run("npx", ["-y", `@arethetypeswrong/cli@${ATTW_VERSION}`, "--pack", tarball, "--profile", "esm-only", "--format", "table-flipped"]);

    // npm would pack the repository's manifest (exports to TypeScript sources): it must refuse, with and without
    // scripts (devEngines names pnpm, which npm 10.9+ enforces before any script; the prepack guard says why).
    for (const scripts of ["--ignore-scripts=false", "--ignore-scripts"]) {
      const npm = spawnSync("npm", ["pack", "--dry-run", scripts], { cwd: pkg.dir, encoding: "utf8", env: { ...process.env, npm_config_user_agent: "" } });
      const text = `${npm.stdout ?? ""}${npm.stderr ?? ""}`;
      appendFileSync(LOG, `\n$ npm pack --dry-run ${scripts}   (in ${path.relative(ROOT, pkg.dir)}; must refuse)\n${text}`);
      if (npm.status === 0 || !/Pack it with pnpm|EBADDEVENGINES[\s\S]*pnpm/.test(text)) fail(`npm pack ${scripts} in ${path.relative(ROOT, pkg.dir)} did not refuse, naming pnpm:\n${text}`);
    }
    console.log(`  ✓ ${pkg.name}: ${path.basename(tarball)} passes publint and arethetypeswrong; npm pack refuses it, with and without scripts`);
  }
  console.log(`${mode}: ${packages.length} packages packed and checked; nothing published (every command's output: ${path.relative(ROOT, LOG)})`);
} finally {
  await rm(work, { recursive: true, force: true });
}
