/**
 * How a person runs the `voar` CLI from the repository's root on a machine with only Node.js and npm: pnpm
 * (the version `packageManager` names) through npx, then the root's `voar` script. Shown by the demo's
 * banner and page.
 */
export const VOAR_CLI = "npx -y pnpm@10.34.9 voar";
