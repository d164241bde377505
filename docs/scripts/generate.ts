/**
 * Writes every generated page of the site (not committed): the error catalogue, the configuration reference and the
 * changelog (docs/reference/generated/) and the API reference (docs/api/).
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { generateApiReference } from "./api-reference.js";
import { changelogPage } from "./changelog-page.js";
import { configReferencePage } from "./config-reference.js";
import { errorCataloguePage } from "./error-catalogue.js";
import { DOCS_DIR, GENERATED_DIR } from "./paths.js";

export const generate = async (): Promise<void> => {
  await rm(GENERATED_DIR, { recursive: true, force: true });
  await rm(path.join(DOCS_DIR, "api"), { recursive: true, force: true });
  await mkdir(GENERATED_DIR, { recursive: true });
  await writeFile(path.join(GENERATED_DIR, "errors.md"), await errorCataloguePage());
  await writeFile(path.join(GENERATED_DIR, "configuration.md"), await configReferencePage());
  await writeFile(path.join(GENERATED_DIR, "changelog.md"), await changelogPage());
  await generateApiReference();
};

if (import.meta.url === `file://${process.argv[1]}`) await generate();
