import { ERROR_CATALOGUE, ERROR_CODES, SOURCE_FAILURE } from "@voar/core";
import { ENV_VARS, ERROR_TABLE, ServiceConfigSchema } from "@voar/hono-edge";
import { describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { changelogPage, PUBLISHED, versionsOf } from "../scripts/changelog-page.js";
import { configReferencePage } from "../scripts/config-reference.js";
import { REPO_DIR } from "../scripts/paths.js";
import { errorCataloguePage } from "../scripts/error-catalogue.js";

const rowOf = (page: string, first: string) => page.split("\n").find((line) => line.startsWith(`| \`${first}\` |`));

describe("the configuration reference", () => {
  it("has a row for every setting's variable, with the default the schema fills in", async () => {
    const page = await configReferencePage();
    for (const name of Object.keys(ENV_VARS)) expect(rowOf(page, name), name).toBeDefined();
    const defaults = ServiceConfigSchema.parse({ apiKeys: [{ name: "t", key: "a-key-of-16-characters" }] });
    expect(rowOf(page, "search.deadlineMs")).toContain(`| \`${defaults.search.deadlineMs}\` |`);
    expect(rowOf(page, "limits.bodyBytes")).toContain("`VOAR_BODY_LIMIT_BYTES`");
    expect(rowOf(page, "store.redis.url")).toContain("`VOAR_STORE_REDIS_URL`");
    // The doc comment of the setting, from the schema's source.
    expect(rowOf(page, "sse.keepAliveMs")).toContain("so proxies keep the stream open");
    // The entries' own variables.
    for (const name of ["VOAR_CONFIG_FILE", "VOAR_PORT", "VOAR_HOSTNAME", "VOAR_SIMULATOR_SEED", "VOAR_SIMULATOR_LATENCY_MS"]) expect(rowOf(page, name), name).toBeDefined();
  });
});

describe("the error catalogue", () => {
  it("has every code with its status, every service error and every source failure of the code's tables", async () => {
    const page = await errorCataloguePage();
    for (const code of ERROR_CODES) expect(rowOf(page, code)).toContain(`| ${ERROR_CATALOGUE[code].status} |`);
    for (const [tag, row] of Object.entries(ERROR_TABLE)) expect(rowOf(page, tag)).toContain(`| ${row.status} | \`${row.codigo}\` |`);
    for (const [tag, row] of Object.entries(SOURCE_FAILURE)) expect(rowOf(page, tag)).toContain(row.mensagem);
  });
});

describe("the changelog", () => {
  it("has every version of each published package's CHANGELOG.md, each with the package's lines", async () => {
    const page = await changelogPage();
    for (const name of PUBLISHED) {
      const manifest = JSON.parse(await readFile(path.join(REPO_DIR, "packages", name, "package.json"), "utf8")) as { version: string; files: string[] };
      expect(manifest.files, `${name}'s tarball ships its CHANGELOG.md`).toContain("CHANGELOG.md");
      const versions = versionsOf(await readFile(path.join(REPO_DIR, "packages", name, "CHANGELOG.md"), "utf8"));
      expect(versions[0]?.version, `${name}: the newest section is the package's version`).toBe(manifest.version);
      for (const { version, text } of versions) {
        expect(page).toContain(`## ${version}`);
        for (const line of text.split("\n").filter((l) => l.startsWith("- "))) expect(page).toContain(line);
      }
    }
  });

  it("is short: each line says what changed for users in a few lines at most (a changeset's first paragraph)", async () => {
    for (const name of PUBLISHED) {
      const text = await readFile(path.join(REPO_DIR, "packages", name, "CHANGELOG.md"), "utf8");
      const long = text.split("\n").filter((l) => l.length > 400);
      expect(long, `packages/${name}/CHANGELOG.md: lines over 400 characters; a changeset's first paragraph is its changelog line`).toEqual([]);
    }
  });
});
