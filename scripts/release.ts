/**
 * `pnpm release`: builds the published packages, then `changeset publish` (which publishes with pnpm, so each
 * package's publishConfig applies, at the versions `pnpm changeset version` wrote). Run it after the release's
 * version commit; it publishes only versions not yet on the registry.
 *
 * `pnpm release --dry-run`: builds, shows the release the pending changesets make, packs each published package
 * with `pnpm pack`, and checks each tarball with publint (warnings are errors) and arethetypeswrong (ESM-only
 * profile); checks that `npm pack` refuses each package with its explanation instead of packing it; publishes
 * nothing. Exits non-zero on any problem.
 */
import { execFile, spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import getReleasePlan from "@changesets/get-release-plan";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = path.join(ROOT, "node_modules/.bin");
const dryRun = process.argv.includes("--dry-run");

/** Runs a command with its output shown; exits this process when it fails. */
const run = (command: string, args: readonly string[], cwd = ROOT): void => {
  console.log(`\n$ ${[command, ...args].join(" ")}${cwd === ROOT ? "" : `   (in ${path.relative(ROOT, cwd)})`}`);
  const result = spawnSync(command, args, { cwd, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`release${dryRun ? " --dry-run" : ""}: ${command} ${args.join(" ")} failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`})`);
    process.exit(1);
  }
};

/** The published packages: every workspace package under packages/ that is not private. */
const publishedPackages = async (): Promise<readonly { readonly name: string; readonly dir: string }[]> => {
  const found: { name: string; dir: string }[] = [];
  for (const entry of await readdir(path.join(ROOT, "packages"), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = path.join(ROOT, "packages", entry.name);
    const manifest = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8").catch(() => "{}")) as { name?: string; private?: boolean };
    if (manifest.name && manifest.private !== true) found.push({ name: manifest.name, dir });
  }
  return found;
};

const packages = await publishedPackages();
console.log(`release${dryRun ? " --dry-run" : ""}: ${packages.map((p) => p.name).join(", ")}`);
run("pnpm", ["--filter", "./packages/*", "run", "build"]);

if (!dryRun) {
  run(path.join(BIN, "changeset"), ["publish"]);
  process.exit(0);
}

const work = await mkdtemp(path.join(tmpdir(), "voar-release-"));
try {
  // What the pending changesets would release (the versions `pnpm changeset version` would write), read from
  // .changeset/ with the configuration's fixed group and ignores: no git needed.
  const { releases } = await getReleasePlan(ROOT);
  const planned = releases.filter((r) => r.type !== "none");
  console.log("\nthe pending changesets would release:");
  console.log(planned.length === 0 ? "no pending changeset: nothing to release" : planned.map((r) => `  ${r.name}: ${r.oldVersion} → ${r.newVersion} (${r.type})`).join("\n"));
  const stray = planned.filter((r) => !packages.some((p) => p.name === r.name));
  if (stray.length > 0) {
    console.error(`release --dry-run: the changesets would version packages that are not published: ${stray.map((r) => r.name).join(", ")}`);
    process.exit(1);
  }
  const majors = planned.filter((r) => r.type === "major" && r.oldVersion.startsWith("0."));
  if (majors.length > 0) {
    console.error(`release --dry-run: the changesets would take ${majors.map((r) => r.name).join(", ")} to 1.0.0; a 0.x release is a minor or a patch`);
    process.exit(1);
  }

  for (const pkg of packages) {
    const out = path.join(work, path.basename(pkg.dir));
    run("pnpm", ["pack", "--pack-destination", out], pkg.dir);
    const [tarball] = (await readdir(out)).filter((f) => f.endsWith(".tgz"));
    if (!tarball) {
      console.error(`release --dry-run: pnpm pack made no tarball for ${pkg.name}`);
      process.exit(1);
    }
    run(path.join(BIN, "publint"), ["run", path.join(out, tarball), "--strict"]);
    // ESM only, on purpose: neither `require` nor node10's resolution (no `main`) is offered.
    run(path.join(BIN, "attw"), ["--pack", path.join(out, tarball), "--profile", "esm-only", "--format", "table-flipped"]);

    // npm would pack the repository's manifest (exports to TypeScript sources): it must refuse, saying why.
    const npm = await promisify(execFile)("npm", ["pack", "--dry-run", "--ignore-scripts=false"], { cwd: pkg.dir, env: { ...process.env, npm_config_user_agent: "" } }).then(
      () => ({ refused: false, text: "" }),
      (e: { stderr?: string; stdout?: string }) => ({ refused: true, text: `${e.stdout ?? ""}${e.stderr ?? ""}` }),
    );
    if (!npm.refused || !npm.text.includes("Pack it with pnpm")) {
      console.error(`release --dry-run: npm pack in ${path.relative(ROOT, pkg.dir)} did not stop with the explanation:\n${npm.text}`);
      process.exit(1);
    }
    console.log(`  ✓ ${pkg.name}: ${tarball} passes publint and arethetypeswrong; npm pack stops with the explanation`);
  }
  console.log(`\nrelease --dry-run: ${packages.length} packages packed and checked; nothing published`);
} finally {
  await rm(work, { recursive: true, force: true });
}
