/**
 * How a changeset becomes a line of its packages' CHANGELOG.md, the changelog users read (in each tarball and on
 * the documentation site): the first paragraph of its summary, what changed for them, on one line. The rest of a
 * changeset (how, and what was measured) is for reviewers and stays in its commit. No "Updated dependencies" lines:
 * the four packages are one fixed group, released together at one version.
 */
const firstParagraph = (summary) =>
  summary
    .trim()
    .split(/\n\s*\n/)[0]
    .replace(/\s+/g, " ")
    .replace(/:$/, ".");

module.exports = {
  getReleaseLine: async (changeset) => `- ${firstParagraph(changeset.summary)}`,
  getDependencyReleaseLine: async () => "",
};
