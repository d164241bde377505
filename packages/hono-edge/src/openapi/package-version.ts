/**
 * The version of the published packages (one `fixed` changesets group, so one version for all four), as the
 * OpenAPI document's `info.version` says it. A constant, so that the document is the same on every runtime (no
 * file read on workerd); a unit test holds it to package.json's, so a release's `changeset version` that bumps
 * the packages fails the tests until it is set here too.
 */
export const PACKAGE_VERSION = "0.2.0";
