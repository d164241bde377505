/**
 * What the unit tier's vitest configs share (packages, apps, docs).
 *
 * - **Timeouts that catch a hang, never a busy machine.** A unit test runs on virtual time and does bounded work
 *   (property tests: a fixed number of runs), so how long it takes says nothing about whether it passes: on the
 *   project's shared two-core machines, with turbo running every package's tests at once beside other work, the
 *   same test takes from under a second to tens of seconds. So the limit is minutes, far above the slowest test
 *   on a loaded machine, and only a test that waits for something that never comes reaches it. `.ci/run` runs the
 *   unit tier under load to keep it that way.
 * - **Test files share their worker's modules** (`isolate: false`): a package's graph (effect, zod, rxjs, hono...)
 *   is imported once per worker rather than once per file, which takes about two thirds of the tier's CPU time
 *   away. A file therefore leaves nothing global behind: `vitest.setup.ts` puts timers, spies, globals and
 *   environment variables back after each file. A file that mocks a module (`vi.mock`) needs a module graph of its
 *   own: it is named in `isolated` and runs apart, and the config refuses to load while such a file is not named.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ViteUserConfig } from "vitest/config";

export const UNIT_TIMEOUTS = {
  testTimeout: 300_000,
  hookTimeout: 300_000,
} as const;

const SETUP = fileURLToPath(new URL("./vitest.setup.ts", import.meta.url));

/** Test files of `dir` (relative paths) whose text mocks a module. */
const filesMockingModules = (dir: string, under = "test"): string[] =>
  readdirSync(path.join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${under}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : filesMockingModules(dir, rel);
    return /\.test\.tsx?$/.test(entry.name) && /\bvi\.(do)?[mM]ock\(/.test(readFileSync(path.join(dir, rel), "utf8")) ? [rel] : [];
  });

interface UnitTier {
  /** `import.meta.url` of the package's vitest config. */
  readonly config: string;
  readonly include: readonly string[];
  readonly exclude?: readonly string[];
  /** Test files that mock a module (`vi.mock`): they run isolated. */
  readonly isolated?: readonly string[];
  readonly env?: Record<string, string>;
}

/** The `test` settings of a package's unit tier (see above). */
export const unitTier = ({ config, include, exclude = [], isolated = [], env }: UnitTier): NonNullable<ViteUserConfig["test"]> => {
  const unnamed = filesMockingModules(path.dirname(fileURLToPath(config))).filter((f) => !isolated.includes(f));
  if (unnamed.length > 0) throw new Error(`${unnamed.join(", ")} mocks a module (vi.mock): name it in the isolated files of ${fileURLToPath(config)}.`);
  const common = { ...UNIT_TIMEOUTS, setupFiles: [SETUP], ...(env ? { env } : {}) };
  const shared = { ...common, include: [...include], exclude: ["**/node_modules/**", ...exclude, ...isolated], isolate: false };
  if (isolated.length === 0) return shared;
  return { projects: [{ test: { ...shared, name: "shared modules" } }, { test: { ...common, name: "isolated", include: [...isolated] } }] };
};
