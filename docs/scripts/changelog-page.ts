/**
 * The site's changelog: the four published packages' CHANGELOG.md (what changed for their users, the files their
 * tarballs ship), merged by version, newest first. The packages are released together at one version (one
 * changesets group), so a version's section holds each package's part. Each line is a changeset's first paragraph
 * (`.changeset/changelog.cjs`).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { REPO_DIR } from "./paths.js";

/** The published packages, in the order the page lists them. */
export const PUBLISHED = ["core", "http-adapter", "hono-edge", "testing"] as const;

/** A CHANGELOG.md's sections by version (`## 0.2.0`), in the file's order, each with its text. */
export const versionsOf = (changelog: string): readonly { readonly version: string; readonly text: string }[] =>
  changelog
    .split(/^## /m)
    .slice(1)
    .map((section) => {
      const [version = "", ...rest] = section.split("\n");
      return { version: version.trim(), text: rest.join("\n").trim() };
    });

/** The page (Markdown). */
export const changelogPage = async (): Promise<string> => {
  const byVersion = new Map<string, string[]>();
  for (const name of PUBLISHED) {
    const text = await readFile(path.join(REPO_DIR, "packages", name, "CHANGELOG.md"), "utf8");
    for (const { version, text: section } of versionsOf(text)) {
      // changesets' `### Minor Changes` one level down, under the package's heading.
      const part = `### @voar/${name}\n\n${section.replace(/^### /gm, "#### ")}`;
      byVersion.set(version, [...(byVersion.get(version) ?? []), part]);
    }
  }
  return [
    "# Changelog",
    "",
    "What changed for you in each release of the four packages, newest first. They are released together, at one",
    "version; each package's `CHANGELOG.md`, in its tarball, holds its own part of this page.",
    "",
    ...[...byVersion].flatMap(([version, parts]) => [`## ${version}`, "", ...parts.flatMap((p) => [p, ""])]),
  ].join("\n");
};
