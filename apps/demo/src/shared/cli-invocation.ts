/**
 * How a person runs the `voar` CLI from the repository's root on a machine with only Node.js and npm: pnpm
 * (the version `packageManager` names) through npx, then the root's `voar` script; `-s` keeps pnpm's own
 * lines out of the output, so `--json` and `--watch` pipe as JSON. Shown by the demo's banner and page.
 */
export const VOAR_CLI = "npx -y pnpm@10.34.9 -s voar";
