/**
 * A newcomer's `npm install` in a fresh copy of the repository (pnpm installs it; npm cannot: no `workspaces`,
 * TypeScript sources as exports): it stops before writing anything, with the one sentence of the root
 * package.json's `engines.npm` naming the commands to use, and a non-zero exit. With the machine's npm (11) and
 * with npm 10 (what Node 20 and 22 ship), each in a copy of its own, at once. `npm run demo` there, with nothing
 * installed, says the same sentence instead of a module-not-found stack.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { packageManager: string; engines: { npm: string } };
const SENTENCE = manifest.engines.npm;

/** The environment of a person's shell: none of the npm_* settings the pnpm running this test exports to it. */
const shellEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|pnpm_)/i.test(k)));

const copies: string[] = [];
afterAll(() => Promise.all(copies.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A copy of the repository's files (those git tracks or would track: the working tree as it is), no install. */
const freshCopy = async (): Promise<string> => {
  const dir = await mkdtemp(path.join(tmpdir(), "voar-npm-"));
  copies.push(dir);
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0");
  for (const file of files.filter((f) => f !== "" && existsSync(path.join(ROOT, f)))) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await copyFile(path.join(ROOT, file), path.join(dir, file));
  }
  return dir;
};

/** Runs a command to its end: its exit code and everything it printed. */
const run = (command: string, args: readonly string[], cwd: string) =>
  new Promise<{ code: number; output: string }>((resolve) => {
    execFile(command, [...args], { cwd, env: shellEnv, maxBuffer: 16 * 1024 * 1024, timeout: 240_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, output: `${stdout}${stderr}` }),
    );
  });

const NPMS = [
  { name: "the machine's npm", command: ["npm"] },
  { name: "npm 10", command: ["npx", "-y", "npm@10"] },
] as const;

describe("npm in the repository", () => {
  it("the sentence names the repository's pnpm, to install and then to run the demo", () => {
    const version = manifest.packageManager.replace(/^pnpm@/, "");
    expect(SENTENCE).toContain(`npx -y pnpm@${version} install`);
    expect(SENTENCE).toContain(`npx -y pnpm@${version} demo`);
  });

  it("npm install stops with that sentence and a non-zero exit, and writes nothing; npm run demo says the same", async () => {
    const results = await Promise.all(
      NPMS.map(async ({ name, command: [bin, ...pre] }) => {
        const dir = await freshCopy();
        const version = (await run(bin!, [...pre, "--version"], dir)).output.trim();
        const install = await run(bin!, [...pre, "install"], dir);
        return { name, version, dir, install };
      }),
    );
    for (const { name, version, dir, install } of results) {
      console.log(`${name} (${version}): npm install exited ${install.code}; ${install.output.split("\n").find((l) => l.includes(SENTENCE))}`);
      expect(install.code, `${name}:\n${install.output}`).not.toBe(0);
      expect(install.output, name).toContain(SENTENCE);
      expect(existsSync(path.join(dir, "node_modules")), `${name} left a node_modules`).toBe(false);
      expect(existsSync(path.join(dir, "package-lock.json")), `${name} left a package-lock.json`).toBe(false);
    }
    const demo = await run("npm", ["run", "demo"], results[0]!.dir);
    console.log(`npm run demo exited ${demo.code}: ${demo.output.trim().split("\n").at(-1)}`);
    expect(demo.code).not.toBe(0);
    expect(demo.output).toContain(SENTENCE);
    expect(demo.output).not.toMatch(/ERR_MODULE_NOT_FOUND|\n\s+at /);
  });
});
